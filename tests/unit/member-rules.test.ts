// The rules of who may change whose place in a workspace (src/members/model.ts), every role against every role.
import { expect, test } from "bun:test";
import { lastOwnerRefusal, mayHandle, seatFree } from "../../src/members/model.ts";
import { planById } from "../../src/plans/plans.ts";

const ROLES = ["owner", "admin", "member", "viewer", "billing"] as const;

test("owners hand out and change every role; admins only member, viewer and billing; others none", () => {
  const allowed = ROLES.map((actor) => [actor, ROLES.filter((role) => mayHandle(actor, role))]);
  expect(allowed).toEqual([
    ["owner", ["owner", "admin", "member", "viewer", "billing"]],
    ["admin", ["member", "viewer", "billing"]],
    ["member", []],
    ["viewer", []],
    ["billing", []],
  ]);
});

test("the last owner can be neither demoted nor removed; with two owners either may go", () => {
  expect(lastOwnerRefusal("owner", "admin", 1)).toContain("make another member owner first");
  expect(lastOwnerRefusal("owner", null, 1)).toContain("make another member owner first");
  expect(lastOwnerRefusal("owner", "owner", 1)).toBeNull();
  expect(lastOwnerRefusal("owner", null, 2)).toBeNull();
  expect(lastOwnerRefusal("admin", null, 1)).toBeNull();
});

test("seats: basic 1, pro 5, enterprise unlimited; pending invites hold a seat", () => {
  expect([planById("basic")!.seats, planById("pro")!.seats, planById("enterprise")!.seats]).toEqual([1, 5, 0]);
  expect(seatFree(1, 1, 0)).toBe(false);
  expect(seatFree(5, 3, 1)).toBe(true);
  expect(seatFree(5, 3, 2)).toBe(false);
  expect(seatFree(0, 500, 500)).toBe(true);
});
