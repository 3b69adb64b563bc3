// Seats per plan (src/plans/plans.ts: basic 1, pro 5, enterprise unlimited), checked when an invite is made and when
// it is accepted: members and pending invites each hold one.
import { and, count, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { forbidden } from "../http/errors.ts";
import { entitlementFor } from "../plans/entitlement.ts";
import type { MemberDeps } from "./deps.ts";
import { seatFree, seatsMessage } from "./model.ts";
import { stillPending } from "./pending-invites.ts";

async function memberCount(db: Db, workspaceId: number): Promise<number> {
  const { workspaceMembers } = tablesOf(db);
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId));
  return row?.n ?? 0;
}

async function pendingInviteCount(db: Db, workspaceId: number, now: number): Promise<number> {
  const { workspaceInvites } = tablesOf(db);
  const [row] = await db
    .select({ n: count() })
    .from(workspaceInvites)
    .where(and(eq(workspaceInvites.workspaceId, workspaceId), stillPending(workspaceInvites, now)));
  return row?.n ?? 0;
}

/**
 * Refuses (403, as the link quota does, naming the plan's seats) when one more person would not fit. `holdingInvite`: the person already
 * holds a seat through the invite they are accepting, so only members count then.
 */
export async function ensureSeatFree(
  deps: MemberDeps,
  db: Db,
  workspaceId: number,
  holdingInvite: boolean,
): Promise<void> {
  const now = deps.clock.now();
  const { plan } = await entitlementFor(db, deps.billingEnabled, workspaceId, now);
  if (plan.seats === 0) return;
  const pending = holdingInvite ? 0 : await pendingInviteCount(db, workspaceId, now);
  if (!seatFree(plan.seats, await memberCount(db, workspaceId), pending))
    throw forbidden(seatsMessage(plan.seats, plan.name));
}
