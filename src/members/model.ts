// Who may change whose place in a workspace (docs/decisions/0065), as pure rules the invite and member operations
// share: what role an actor may hand out or take away, the last owner, and the seats a plan allows.
import type { Role } from "../workspaces/model.ts";

/** An invite's life: it answers for this long, once, for the address it names. */
export const INVITE_DAYS = 14;
export const INVITE_MS = INVITE_DAYS * 86_400_000;

/** Roles an admin may hand out, change and take away: everything below owner but admin itself. */
const BELOW_ADMIN: ReadonlySet<Role> = new Set(["member", "viewer", "billing"]);

/** Whether `actor` (who holds members.write) may give someone `role`, or change or remove someone holding it. */
export function mayHandle(actor: Role, role: Role): boolean {
  return actor === "owner" || (actor === "admin" && BELOW_ADMIN.has(role));
}

export const ONLY_OWNERS =
  "Only an owner can make someone an admin or an owner, or change an admin's or an owner's role.";
const LAST_OWNER =
  "A workspace needs an owner: make another member owner first (PATCH their role to owner), then change or leave yours.";

/**
 * Why an owner may not stop being one (a demotion, or leaving): only when they are the last. `owners`: how many the
 * workspace has now, them included.
 */
export const lastOwnerRefusal = (currentRole: Role, nextRole: Role | null, owners: number): string | null =>
  currentRole === "owner" && nextRole !== "owner" && owners <= 1 ? LAST_OWNER : null;

/**
 * Whether one more person fits: `seats` is the plan's (0: unlimited); members and pending invites both hold one,
 * so that invites sent within the limit can all be accepted.
 */
export const seatFree = (seats: number, members: number, pendingInvites: number): boolean =>
  seats === 0 || members + pendingInvites < seats;

export const seatsMessage = (seats: number, planName: string) =>
  `The ${planName} plan has ${seats === 1 ? "1 seat" : `${seats} seats`}, and members and pending invites fill them. Upgrade at /pricing, or revoke an invite or remove a member first.`;
