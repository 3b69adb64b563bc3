// Workspace settings → Audit log: the log of src/workspaces/audit-list.ts drawn on the server, newest first, one page
// at a time ("Older" follows the API's cursor), with the CSV of audit-routes.ts. No island: nothing here changes.
import type { AuditPageJson } from "../workspaces/audit-wire.ts";
import { buttonClass } from "../client/ui/Dialog.tsx";

const COLUMNS = ["Time", "Who", "Action", "Target", "Fields"];

export function AuditLogSection({ page, workspace }: { page: AuditPageJson; workspace: { id: number; slug: string } }) {
  const older = page.nextCursor
    ? `/admin/workspace/audit?workspace=${encodeURIComponent(workspace.slug)}&cursor=${page.nextCursor}`
    : null;
  return (
    <section aria-labelledby="audit-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="audit-title" className="text-lg font-semibold">
          Audit log
        </h2>
        <a href={`/api/workspaces/${workspace.id}/audit.csv`} download className={buttonClass.secondary}>
          Download CSV
        </a>
      </div>
      <p className="mt-1 text-sm text-gray-600">Every change in this workspace, newest first; kept 365 days.</p>
      {/* Scrolls sideways on a phone, so it takes focus for keyboard users (as link-stats.tsx's tables do). */}
      <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label="Audit log (table)">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-gray-200 text-gray-700">
              {COLUMNS.map((column, index) => (
                <th
                  key={column}
                  scope="col"
                  className={index < COLUMNS.length - 1 ? "py-2 pr-4 font-medium" : "py-2 font-medium"}
                >
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {page.items.map((event, index) => (
              <tr key={`${event.at}-${index}`}>
                <td className="py-2 pr-4 whitespace-nowrap">
                  <time dateTime={event.at}>{event.at.replace("T", " ").slice(0, 19)} UTC</time>
                </td>
                <td className="py-2 pr-4">
                  {event.actor.email ?? "a deleted account"}
                  {event.actor.tokenId !== null && (
                    <span className="text-gray-600">{` (API token ${event.actor.tokenId})`}</span>
                  )}
                </td>
                <td className="py-2 pr-4">
                  <code>{event.action}</code>
                </td>
                <td className="py-2 pr-4">
                  {event.target.id ? `${event.target.kind} ${event.target.id}` : event.target.kind}
                </td>
                <td className="py-2">{event.fields.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {page.items.length === 0 && <p className="py-2 text-sm text-gray-600">Nothing recorded yet.</p>}
      </div>
      {older && (
        <a href={older} className={`${buttonClass.secondary} mt-4 inline-block`}>
          Older
        </a>
      )}
    </section>
  );
}
