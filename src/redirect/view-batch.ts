// The shape of a counted view and the transaction that stores a batch of them.
// Used by the writer Worker; kept apart so that tests and admin commands can write batches synchronously too.
import type { Database } from "bun:sqlite";

export type ViewRecord = {
  linkId: number;
  userId: number;
  isBot: boolean;
  platform: string | null;
  ip: string | null;
  userAgent: string;
  attribution: string | null;
  at: number;
};

type Sums = { human: number; bot: number };

function bump<K>(map: Map<K, Sums>, key: K, isBot: boolean) {
  let sums = map.get(key);
  if (!sums) map.set(key, (sums = { human: 0, bot: 0 }));
  if (isBot) sums.bot++;
  else sums.human++;
}

export function createBatchWriter(sqlite: Database): (batch: ViewRecord[]) => void {
  // A view of a link that no longer exists (its owner was removed) is dropped, not allowed to fail the batch.
  const insertView = sqlite.query(
    `INSERT INTO views (user_id, link_id, ip, user_agent, attribution, is_bot, platform, timestamp)
     SELECT ?, id, ?, ?, ?, ?, ?, ? FROM links WHERE id = ?`,
  );
  const addToLink = sqlite.query(`UPDATE links SET views_human = views_human + ?, views_bot = views_bot + ? WHERE id = ?`);
  const addToDay = sqlite.query(
    `INSERT INTO view_days (link_id, day, human, bot) SELECT id, ?, ?, ? FROM links WHERE id = ?
     ON CONFLICT (link_id, day) DO UPDATE SET human = human + excluded.human, bot = bot + excluded.bot`,
  );
  const addToPlatform = sqlite.query(
    `INSERT INTO view_platforms (link_id, platform, count) SELECT id, ?, ? FROM links WHERE id = ?
     ON CONFLICT (link_id, platform) DO UPDATE SET count = count + excluded.count`,
  );

  return sqlite.transaction((batch: ViewRecord[]) => {
    const perLink = new Map<number, Sums>();
    const perDay = new Map<string, Sums>();
    const perPlatform = new Map<string, Sums>();
    for (const v of batch) {
      insertView.run(v.userId, v.ip, v.userAgent.slice(0, 1024), v.attribution, v.isBot ? 1 : 0, v.platform, v.at, v.linkId);
      bump(perLink, v.linkId, v.isBot);
      bump(perDay, `${v.linkId} ${new Date(v.at).toISOString().slice(0, 10)}`, v.isBot);
      if (v.platform) bump(perPlatform, `${v.linkId} ${v.platform}`, true);
    }
    // Counters in id order: each commit then touches the links pages in one sweep.
    for (const [linkId, sums] of [...perLink].sort((a, b) => a[0] - b[0])) addToLink.run(sums.human, sums.bot, linkId);
    for (const [key, sums] of perDay) {
      const [linkId, day] = key.split(" ");
      addToDay.run(day!, sums.human, sums.bot, Number(linkId));
    }
    for (const [key, sums] of perPlatform) {
      const [linkId, platform] = key.split(" ");
      addToPlatform.run(platform!, sums.bot, Number(linkId));
    }
  }).immediate as (batch: ViewRecord[]) => void;
}
