// The inspect page's other destinations: every address a link can send a person to besides its target (its rules'
// targets, its expired address), so that none is hidden from the people asking where a link goes. A password
// link lists none: its destinations are for those who know the password.
import { eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { escapeHtml } from "../http/escape.ts";
import { parseGoRules } from "../rules/model.ts";

const row = (label: string, url: string) =>
  `<dt>${escapeHtml(label)}</dt><dd><code style="word-break:break-all">${escapeHtml(url)}</code></dd>\n`;

/** The `<dl>` rows of the link's other destinations (each rule's target, then the expired address); "" when none. */
export async function otherDestinationRows(db: Db, linkId: number): Promise<string> {
  const { linkRules } = tablesOf(db);
  const [stored] = await db.select({ goRules: linkRules.goRules }).from(linkRules).where(eq(linkRules.linkId, linkId));
  const rules = parseGoRules(stored?.goRules ?? null);
  if (!rules || rules.passwordHash) return "";
  const byRule = (rules.rules ?? []).map((rule) =>
    row(
      "device" in rule.when ? `Destination on ${rule.when.device}` : `Destination in ${rule.when.country}`,
      rule.targetUrl,
    ),
  );
  return [...byRule, ...(rules.expiredUrl ? [row("Destination once expired or used up", rules.expiredUrl)] : [])].join(
    "",
  );
}
