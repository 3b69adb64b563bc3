// A link's rules and health as the API shows them: the password never, only whether there is one.
import { tablesOf } from "../db/tables.ts";
import type { Db } from "../db/ports.ts";
import { parseGoRules } from "./model.ts";

/** The link_rules columns the link queries read (null throughout for a link without a row). */
export type RulesRow = {
  goRules: string | null;
  healthStatus: string | null;
  healthCheckedAt: Date | null;
  healthHttpStatus: number | null;
  healthFinalUrl: string | null;
  healthFailedUrl: string | null;
  /** People counted against maxClicks (null: no row). */
  clicks: number | null;
};

/** The columns a RulesRow is selected from (with a left join of link_rules). */
export const rulesColumns = (db: Db) => {
  const { linkRules } = tablesOf(db);
  return {
    goRules: linkRules.goRules,
    healthStatus: linkRules.healthStatus,
    healthCheckedAt: linkRules.healthCheckedAt,
    healthHttpStatus: linkRules.healthHttpStatus,
    healthFinalUrl: linkRules.healthFinalUrl,
    healthFailedUrl: linkRules.healthFailedUrl,
    clicks: linkRules.clicks,
  };
};

export type HealthStatus = "ok" | "broken" | "unchecked";

export function presentRules(row: RulesRow) {
  const rules = parseGoRules(row.goRules);
  const status: HealthStatus =
    row.healthStatus === "ok" || row.healthStatus === "broken" ? row.healthStatus : "unchecked";
  return {
    expiresAt: rules?.expiresAt !== undefined ? new Date(rules.expiresAt) : null,
    maxClicks: rules?.maxClicks ?? null,
    visitsUsed: row.clicks ?? 0,
    expiredUrl: rules?.expiredUrl ?? null,
    hasPassword: rules?.passwordHash !== undefined,
    rules: rules?.rules ?? [],
    health: {
      status,
      checkedAt: row.healthCheckedAt,
      httpStatus: row.healthHttpStatus,
      finalUrl: row.healthFinalUrl,
      failedUrl: row.healthFailedUrl,
    },
  };
}
