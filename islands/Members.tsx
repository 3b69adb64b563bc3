// The workspace's members and pending invites, for owners and admins: invite by e-mail with a role (the accept URL
// shown once), revoke an invite, change a role, remove a member — all through /api/workspaces/{id}/… (the server
// decides who may do what: src/members/). Viewers get the plain list instead (src/pages/workspace-settings.tsx).
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { shortDate } from "../src/client/format.ts";
import type { InviteJson } from "../src/members/wire.ts";
import { ROLES, type Role } from "../src/workspaces/model.ts";

export type MemberRow = { userId: number; email: string; role: Role };
export type MembersProps = { workspaceId: number; selfId: number; members: MemberRow[]; invites: InviteJson[] };

const fieldClass = "rounded-md border border-gray-300 px-3 py-2 text-sm";

/** The choices of both role selects: a member's and an invite's. */
const roleOptions = ROLES.map((r) => (
  <option key={r} value={r}>
    {r}
  </option>
));

// The three parts (members, the invite form, pending invites): each a titled section, the lists drawn alike.
const listClass = "mt-2 divide-y divide-gray-100";
const rowClass = "flex flex-wrap items-center justify-between gap-2 py-2 text-sm";

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function Members({
  workspaceId,
  selfId,
  members: initialMembers,
  invites: initialInvites,
}: MembersProps) {
  const [members, setMembers] = useState(initialMembers);
  const [invites, setInvites] = useState(initialInvites);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("member");
  const [acceptUrl, setAcceptUrl] = useState<string | null>(null);
  const base = `/api/workspaces/${workspaceId}`;
  const refused = (error: unknown) =>
    toast({ title: "Error", description: errorMessage(error), variant: "destructive" });

  const invite = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const made = await api<InviteJson>(`${base}/invites`, { method: "POST", json: { email, role } });
      setInvites([...invites.filter((i) => i.email !== made.email), made]);
      setAcceptUrl(made.url);
      setEmail("");
      toast({ title: "Invite created", description: made.email });
    } catch (error) {
      refused(error);
    }
  };
  const revoke = async (id: number) => {
    try {
      await api(`${base}/invites/${id}`, { method: "DELETE" });
      setInvites(invites.filter((i) => i.id !== id));
      toast({ title: "Invite revoked" });
    } catch (error) {
      refused(error);
    }
  };
  const changeRole = async (userId: number, next: Role) => {
    try {
      const changed = await api<MemberRow>(`${base}/members/${userId}`, { method: "PATCH", json: { role: next } });
      setMembers(members.map((m) => (m.userId === userId ? changed : m)));
      toast({ title: "Role changed", description: `${changed.email} is now ${changed.role}` });
    } catch (error) {
      refused(error);
      // The select shows the role the server kept.
      setMembers([...members]);
    }
  };
  const remove = async (member: MemberRow) => {
    try {
      await api(`${base}/members/${member.userId}`, { method: "DELETE" });
      setMembers(members.filter((m) => m.userId !== member.userId));
      toast({ title: "Member removed", description: member.email });
    } catch (error) {
      refused(error);
    }
  };

  return (
    <div className="space-y-8">
      <Section id="members-title" title="Members">
        <ul aria-label="Members" className={listClass}>
          {members.map((member) => (
            <li key={member.userId} className={rowClass}>
              <span className="font-medium">{member.userId === selfId ? `${member.email} (you)` : member.email}</span>
              <span className="flex items-center gap-2">
                <select
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  onChange={(e) => changeRole(member.userId, (e.target as HTMLSelectElement).value as Role)}
                  className={fieldClass}
                >
                  {roleOptions}
                </select>
                {member.userId !== selfId && (
                  <button
                    type="button"
                    className={buttonClass.secondary}
                    onClick={() => remove(member)}
                    aria-label={`Remove ${member.email}`}
                  >
                    Remove
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="invite-title" title="Invite someone">
        <form onSubmit={invite} className="mt-2 flex flex-wrap items-end gap-2">
          <label className="flex min-w-0 flex-1 flex-col text-sm font-medium">
            E-mail address
            <input
              type="email"
              required
              maxLength={254}
              value={email}
              onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
              className={`${fieldClass} mt-1 font-normal`}
            />
          </label>
          <div className="flex flex-col text-sm font-medium">
            <label htmlFor="invite-role">Role</label>
            <select
              id="invite-role"
              value={role}
              onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}
              className={`${fieldClass} mt-1 font-normal`}
            >
              {roleOptions}
            </select>
          </div>
          <button type="submit" className={buttonClass.primary} disabled={!email.trim()}>
            Send invite
          </button>
        </form>
        {acceptUrl && (
          <div className="mt-3 rounded-md border border-green-300 bg-green-50 p-3 text-sm" role="status">
            <p className="font-semibold">The accept URL, shown only now (with mail set up it was also sent):</p>
            <code data-testid="invite-url" className="mt-1 block break-all rounded bg-white px-2 py-1">
              {acceptUrl}
            </code>
          </div>
        )}
      </Section>

      <Section id="pending-title" title="Pending invites">
        <ul aria-label="Pending invites" className={listClass}>
          {invites.map((pending) => (
            <li key={pending.id} className={rowClass}>
              <span>
                <span className="font-medium">{pending.email}</span>
                <span className="text-gray-600">{` · ${pending.role} · expires ${shortDate(pending.expiresAt)}`}</span>
              </span>
              <button
                type="button"
                className={buttonClass.secondary}
                onClick={() => revoke(pending.id)}
                aria-label={`Revoke the invite of ${pending.email}`}
              >
                Revoke
              </button>
            </li>
          ))}
          {invites.length === 0 && <li className="py-2 text-sm text-gray-600">No pending invites.</li>}
        </ul>
      </Section>
    </div>
  );
}
