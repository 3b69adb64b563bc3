// The one navigation of workspace settings and the one of account settings (docs/workspaces.md, "Where things are").
// Workspace links name the workspace (`?workspace=`), so a tab opened on one keeps showing it whatever the cookie says.

export type WorkspaceSection = "general" | "members" | "tokens" | "domains" | "webhooks" | "billing" | "audit";

/** Where each workspace settings section lives. */
export const WORKSPACE_SETTINGS: Record<WorkspaceSection, { path: string; label: string }> = {
  general: { path: "/admin/workspace", label: "General" },
  members: { path: "/admin/workspace/members", label: "Members and invites" },
  tokens: { path: "/admin/workspace/tokens", label: "API tokens" },
  domains: { path: "/admin/workspace/domains", label: "Domains" },
  webhooks: { path: "/admin/workspace/webhooks", label: "Webhooks" },
  billing: { path: "/admin/workspace/billing", label: "Billing" },
  audit: { path: "/admin/workspace/audit", label: "Audit log" },
};

export const workspaceHref = (section: WorkspaceSection, slug: string) =>
  `${WORKSPACE_SETTINGS[section].path}?workspace=${encodeURIComponent(slug)}`;

const itemClass = (current: boolean) =>
  `block rounded-md px-3 py-2 text-sm font-medium ${current ? "bg-gray-900 text-white" : "text-gray-800 hover:bg-gray-100"}`;

/** The frame of a settings page: its heading, the section links beside (below on a phone) and the section. */
function SettingsFrame({
  heading,
  label,
  items,
  children,
}: {
  heading: string;
  label: string;
  items: Array<{ href: string; text: string; current: boolean }>;
  children: React.ReactNode;
}) {
  return (
    <div>
      <h1 className="text-3xl font-bold">{heading}</h1>
      <div className="mt-6 flex flex-col gap-6 md:flex-row">
        <nav aria-label={label} className="md:w-56 md:shrink-0">
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {items.map((item) => (
              <li key={item.href}>
                <a
                  href={item.href}
                  aria-current={item.current ? "page" : undefined}
                  className={itemClass(item.current)}
                >
                  {item.text}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </div>
  );
}

export function WorkspaceSettings({
  section,
  workspace,
  children,
}: {
  section: WorkspaceSection;
  workspace: { slug: string; name: string };
  children: React.ReactNode;
}) {
  const items = (Object.keys(WORKSPACE_SETTINGS) as WorkspaceSection[]).map((key) => ({
    href: workspaceHref(key, workspace.slug),
    text: WORKSPACE_SETTINGS[key].label,
    current: key === section,
  }));
  items.push({ href: "/account", text: "Account settings →", current: false });
  return (
    <SettingsFrame heading={`Workspace settings: ${workspace.name}`} label="Workspace settings" items={items}>
      {children}
    </SettingsFrame>
  );
}

export type AccountSection = "profile" | "data" | "delete";

const ACCOUNT_SETTINGS: Record<AccountSection, { path: string; label: string }> = {
  profile: { path: "/account", label: "Profile" },
  data: { path: "/account/data", label: "Your data" },
  delete: { path: "/account/delete", label: "Delete account" },
};

export function AccountSettings({ section, children }: { section: AccountSection; children: React.ReactNode }) {
  const items = (Object.keys(ACCOUNT_SETTINGS) as AccountSection[]).map((key) => ({
    href: ACCOUNT_SETTINGS[key].path,
    text: ACCOUNT_SETTINGS[key].label,
    current: key === section,
  }));
  items.push({ href: WORKSPACE_SETTINGS.general.path, text: "Workspace settings →", current: false });
  return (
    <SettingsFrame heading="Account settings" label="Account settings" items={items}>
      {children}
    </SettingsFrame>
  );
}
