// The inspect page: any short address with `+` appended (/go/{user}/{link}+), for anyone: the full destination
// (for a link behind a password only that it is protected: its destinations are for those who know it), the card as crawlers see it, when the link was made, its status, and a "Report this link" form. A function of
// the resolved link, so that every way of resolving one (custom domains too) can answer it; never a view.
import { eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { escapeHtml } from "../http/escape.ts";
import { isPasswordProtected } from "../rules/model.ts";
import { NEUTRAL_TITLE } from "./disabled-answer.ts";
import { otherDestinationRows } from "./inspect-destinations.ts";
import { page, pageHeaders } from "./page.ts";
import { REPORT_REASONS } from "./wire.ts";

export type InspectedLink = {
  id: number;
  userSlug: string;
  linkSlug: string;
  targetUrl: string;
  title: string;
  description: string;
  imageUrl: string | null;
  goRules: string | null;
};

const HEADERS = pageHeaders("; img-src * data:; form-action 'self'");

function render(
  link: InspectedLink,
  facts: { createdAt: Date; status: string; disabledReason: string | null },
  address: string,
  reported: boolean,
  others: string,
): string {
  const e = escapeHtml;
  const disabled = facts.status === "disabled";
  const card = disabled
    ? `<strong>${NEUTRAL_TITLE}</strong><p>This short link has been disabled.</p>`
    : `${link.imageUrl ? `<img src="${e(link.imageUrl)}" alt="" style="max-width:100%">` : ""}<strong>${e(link.title)}</strong><p>${e(link.description)}</p>`;
  const reasons = REPORT_REASONS.map((reason) => `<option value="${reason}">${reason}</option>`).join("");
  return page(
    `<title>Inspect ${e(address)}</title>`,
    `<h1>Where this link goes</h1>
<dl>
<dt>Short address</dt><dd><code>${e(address)}</code></dd>
<dt>Destination</dt><dd>${isPasswordProtected(link.goRules) ? "Password protected" : `<code style="word-break:break-all">${e(link.targetUrl)}</code>`}</dd>
${others}<dt>Created</dt><dd><time datetime="${facts.createdAt.toISOString()}">${facts.createdAt.toISOString().slice(0, 10)}</time></dd>
<dt>Status</dt><dd>${disabled ? `Disabled${facts.disabledReason ? `: ${e(facts.disabledReason)}` : ""}` : "Active"}</dd>
</dl>
<h2>The card crawlers see</h2>
<div style="border:1px solid #ccc;border-radius:8px;padding:1rem">${card}</div>
<h2>Report this link</h2>
${reported ? `<p role="status">Thank you: your report was sent to the operators.</p>` : ""}
<form method="post" action="/api/reports">
<input type="hidden" name="address" value="${e(address)}">
<p><label>Reason <select name="reason" required>${reasons}</select></label></p>
<p><label>Details (optional)<br><textarea name="details" maxlength="2000" rows="4" cols="50"></textarea></label></p>
<p><button type="submit">Report this link</button></p>
</form>`,
  );
}

/** The inspect answer for a resolved link (null: none there, a 404). `address`: as the visitor wrote it, without the `+`. */
export async function inspectAnswer(
  db: Db,
  link: InspectedLink | null,
  address: string,
  request: Request,
  extraHeaders: Record<string, string>,
  notFound: () => Response,
): Promise<Response> {
  const { links } = tablesOf(db);
  if (!link) return notFound();
  const [facts] = await db
    .select({ createdAt: links.createdAt, status: links.status, disabledReason: links.disabledReason })
    .from(links)
    .where(eq(links.id, link.id));
  if (!facts) return notFound();
  const reported = new URL(request.url).searchParams.get("reported") === "1";
  const others = await otherDestinationRows(db, link.id);
  return new Response(render(link, facts, address, reported, others), {
    status: 200,
    headers: { ...HEADERS, ...extraHeaders },
  });
}
