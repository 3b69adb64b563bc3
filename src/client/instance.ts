// How this instance is set up, in the words its screens use when Google sign-in or Stripe billing is off (the
// spec's own words stay wherever they are configured).
export const BILLING_OFF_NOTE = "Billing is off on this instance: every account has enterprise limits.";

/** Without Google, accounts come from one-time sign-in links that the instance's administrator makes. */
export const LINK_SIGN_IN_LABEL = "Sign in with a one-time link";
export const LINK_SIGN_IN_NOTE =
  "This instance has no Google sign-in: its administrator sends you a one-time sign-in link.";
