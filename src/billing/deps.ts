// What every billing operation is given (composed in src/services.ts), and the Stripe client they share.
import type Stripe from "stripe";
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { ChangeBus, Database } from "../db/ports.ts";
import { conflict } from "../http/errors.ts";
import type { Logger } from "../observability/log.ts";
import type { VatCheck, VatRequest } from "./vat.ts";

export type BillingDeps = {
  database: Database;
  /** A plan change may start or stop serving the owner's custom domains on every node (src/domains/host-map.ts). */
  changes: ChangeBus;
  config: Config;
  stripe: Stripe | null;
  checkVat: (input: VatRequest) => Promise<VatCheck>;
  clock: Clock;
  log: Logger;
};

const BILLING_OFF = "Billing is disabled on this server";

export function stripeOf(deps: BillingDeps): { stripe: Stripe; settings: NonNullable<Config["stripe"]> } {
  if (!deps.stripe || !deps.config.stripe) throw conflict(BILLING_OFF);
  return { stripe: deps.stripe, settings: deps.config.stripe };
}
