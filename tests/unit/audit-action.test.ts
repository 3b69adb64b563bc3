// The audit log names an action after the route's operation id (docs/decisions/0068): verb + noun, one verb per kind
// of change, and the few named on purpose.
import { expect, test } from "bun:test";
import { auditAction } from "../../src/workspaces/audit-record.ts";

test("operation ids read as kind.verb", () => {
  expect(
    [
      "createLink",
      "updateLink",
      "deleteLink",
      "createLinkVersion",
      "addDomain",
      "removeDomain",
      "updateWebhook",
      "rotateWebhookSecret",
      "createToken",
      "revokeToken",
      "createInvite",
      "changeMemberRole",
      "removeMember",
      "renameWorkspace",
      "setQrStyle",
      "subscribe",
    ].map(auditAction),
  ).toEqual([
    "link.create",
    "link.update",
    "link.delete",
    "link-version.create",
    "domain.create",
    "domain.delete",
    "webhook.update",
    "webhook-secret.rotate",
    "token.create",
    "token.revoke",
    "invite.create",
    "member.role",
    "member.delete",
    "workspace.update",
    "qr-style.update",
    "subscription.create",
  ]);
});
