// The sections of workspace settings (src/pages/settings-nav.tsx) that are not pages of their own elsewhere
// (domains.tsx, webhooks.tsx): general, members and invites, API tokens, billing. What the viewer's role may not
// change is shown as text, never as a form (src/workspaces/permissions.ts).
import type { ApiTokenJson } from "../auth/wire.ts";
import { shortDate } from "../client/format.ts";
import type { SubscriptionCardProps } from "../../islands/SubscriptionCard.tsx";
import type { MembersProps } from "../../islands/Members.tsx";
import { buttonClass } from "../client/ui/Dialog.tsx";
import { ApiTokens, DeleteWorkspace, Members, RenameWorkspace, SubscriptionCard } from "./islands.ts";

type Workspace = { id: number; slug: string; name: string; personal: boolean };

/** What the viewer's role lets them do here (src/workspaces/permissions.ts). */
export type GeneralActions = { rename: boolean; remove: boolean; exportData: boolean };

export function GeneralSection({
  workspace,
  publicUrl,
  personalSlug,
  actions,
}: {
  workspace: Workspace;
  publicUrl: string;
  personalSlug: string;
  actions: GeneralActions;
}) {
  return (
    <section aria-labelledby="general-title">
      <h2 id="general-title" className="text-lg font-semibold">
        General
      </h2>
      <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-gray-700">Name</dt>
        <dd>{workspace.name}</dd>
        <dt className="font-medium text-gray-700">Slug</dt>
        <dd>
          <code>{workspace.slug}</code>
          <span className="text-gray-600">{` · its links are ${publicUrl}/go/${workspace.slug}/…; a slug never changes`}</span>
        </dd>
        <dt className="font-medium text-gray-700">Kind</dt>
        <dd>{workspace.personal ? "Your personal workspace" : "A team workspace"}</dd>
      </dl>
      {actions.rename && <RenameWorkspace workspaceId={workspace.id} name={workspace.name} />}
      {actions.exportData && (
        <a
          href={`/api/workspaces/${workspace.id}/export`}
          download
          className={`${buttonClass.secondary} mt-6 inline-block`}
        >
          Export workspace
        </a>
      )}
      {workspace.personal ? (
        <p className="mt-8 text-sm text-gray-600">
          Your personal workspace goes only with your account:{" "}
          <a href="/account/delete" className="underline">
            delete your account
          </a>{" "}
          removes it.
        </p>
      ) : (
        actions.remove && (
          <DeleteWorkspace workspaceId={workspace.id} slug={workspace.slug} personalSlug={personalSlug} />
        )
      )}
    </section>
  );
}

/** `manage`: the viewer may invite and change members (members.write); else the list of members, as text. */
export function MembersSection(props: MembersProps & { manage: boolean }) {
  if (props.manage) return <Members {...props} />;
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title" className="text-lg font-semibold">
        Members
      </h2>
      <ul aria-label="Members" className="mt-2 divide-y divide-gray-100">
        {props.members.map((member) => (
          <li key={member.userId} className="flex justify-between gap-2 py-2 text-sm">
            <span className="font-medium">{member.email}</span>
            <span className="text-gray-700">{member.role}</span>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-gray-600">Owners and admins invite people and change roles.</p>
    </section>
  );
}

export function TokensSection({
  tokens,
  publicUrl,
  manage,
}: {
  tokens: ApiTokenJson[];
  publicUrl: string;
  manage: boolean;
}) {
  if (manage) return <ApiTokens tokens={tokens} publicUrl={publicUrl} />;
  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title" className="text-lg font-semibold">
        API tokens
      </h2>
      <ul className="mt-2 divide-y divide-gray-100">
        {tokens.map((token) => (
          <li key={token.id} className="py-2 text-sm">
            <span className="font-medium">{token.name}</span>
            <span className="text-gray-600">{` · created ${shortDate(token.createdAt)}`}</span>
          </li>
        ))}
        {tokens.length === 0 && <li className="py-2 text-sm text-gray-600">No tokens yet.</li>}
      </ul>
      <p className="mt-4 text-sm text-gray-600">Owners and admins make and revoke tokens.</p>
    </section>
  );
}

/** The subscription card of the dashboard's Subscription tab; as text for whoever may not change billing. */
export function BillingSection({ card, manage }: { card: SubscriptionCardProps; manage: boolean }) {
  if (manage) return <SubscriptionCard {...card} />;
  const { subscription } = card;
  return (
    <section aria-labelledby="billing-title">
      <h2 id="billing-title" className="text-lg font-semibold">
        Billing
      </h2>
      <p className="mt-2 text-sm" data-testid="plan-summary">
        {subscription ? `Plan: ${subscription.planName}` : "No active subscription"}
      </p>
      <p className="mt-4 text-sm text-gray-600">Owners and billing members manage the subscription.</p>
    </section>
  );
}
