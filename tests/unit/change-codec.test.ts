// The change bus's one codec (src/db/change.ts): every change survives the trip through text, and the text is the
// one earlier releases sent and read (`user/slug`, `user/`, `!domains`), so nodes of two releases share a cluster
// during a rolling restart (docs/decisions/0054).
import { expect, test } from "bun:test";
import { movedSlug } from "../../src/db/address-key.ts";
import { decodeChange, encodeChange, linkChange, type Change } from "../../src/db/change.ts";

const changes: Array<[Change, string]> = [
  [linkChange("alice", "launch"), "alice/launch"],
  [linkChange("alice", movedSlug("launch", 7)), "alice/launch@7"],
  [{ kind: "user", userSlug: "alice" }, "alice/"],
  [{ kind: "domains" }, "!domains"],
];

test("each change is written as earlier releases wrote it, and read back as itself", () => {
  for (const [change, text] of changes) {
    expect(encodeChange(change)).toBe(text);
    expect(decodeChange(text)).toEqual(change);
  }
});

test("text no release sends is read as nothing, not as a link", () => {
  for (const text of ["", "alice", "/launch", "!workspaces"]) expect(decodeChange(text)).toBeNull();
});
