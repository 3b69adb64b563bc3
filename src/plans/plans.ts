// The three plans: what they cost (EUR a month, VAT excluded), what they allow, and their Stripe price.
import type { Config } from "../config/config.ts";

export type PlanId = "basic" | "pro" | "enterprise";

export type Plan = {
  id: PlanId;
  name: string;
  description: string;
  priceMonthly: number;
  features: string[];
  rank: number;
  /** Live links allowed; 0 means unlimited. */
  linkQuota: number;
  customSlugs: boolean;
  /** Custom domains allowed (src/domains/). */
  domains: number;
  /** People in a workspace, members and pending invites (src/members/); 0 means unlimited. */
  seats: number;
};

export const PLANS: readonly Plan[] = [
  {
    id: "basic",
    name: "Basic",
    description: "For individuals sharing a few links",
    priceMonthly: 5,
    features: ["20 links", "Custom title, description and image", "Bot and human view analytics"],
    rank: 0,
    linkQuota: 20,
    customSlugs: false,
    domains: 0,
    seats: 1,
  },
  {
    id: "pro",
    name: "Pro",
    description: "For creators and small teams",
    priceMonthly: 15,
    features: ["150 links", "Custom short URLs", "Custom title, description and image", "Bot and human view analytics"],
    rank: 1,
    linkQuota: 150,
    customSlugs: true,
    domains: 1,
    seats: 5,
  },
  {
    id: "enterprise",
    name: "Enterprise",
    description: "For businesses with many campaigns",
    priceMonthly: 49,
    features: [
      "Unlimited links",
      "Custom short URLs",
      "Custom title, description and image",
      "Bot and human view analytics",
    ],
    rank: 2,
    linkQuota: 0,
    customSlugs: true,
    domains: 10,
    seats: 0,
  },
];

export function planById(id: string): Plan | undefined {
  return PLANS.find((plan) => plan.id === id);
}

export function stripePriceFor(config: NonNullable<Config["stripe"]>, planId: PlanId): string {
  return config.prices[planId];
}

export function planForStripePrice(config: NonNullable<Config["stripe"]>, priceId: string): Plan | undefined {
  return PLANS.find((plan) => config.prices[plan.id] === priceId);
}

/** What GET /api/plans shows. */
export const publicPlans = () =>
  PLANS.map(({ id, name, description, priceMonthly, features }) => ({ id, name, description, priceMonthly, features }));
