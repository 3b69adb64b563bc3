// The writer Worker's side of view counting. Every batch's raw rows are committed at once; the rollups that
// every read uses are folded in every few seconds, or as soon as the writer is idle or asked to (flush, stop).
// Folding less often is what makes counting cheap under load: a commit rewrites every rollup page it touches,
// and a second of traffic over thousands of links touches them all (docs/decisions/0001).
// The rollups record the last view id they count, in the same transaction, so a crash can only leave them
// behind the rows, never out of step: at start the store folds in whatever rows are newer than that mark.
import type { Database } from "bun:sqlite";
import type { ViewBatch } from "./view-batch.ts";

/** How far the rollups may lag behind the stored rows while views keep coming. */
const ROLLUP_LAG_MS = 2000;
const DAY_MS = 86_400_000;
/** Distinct User-Agents whose ids are remembered; a flood of random agents only clears the memo. */
const AGENT_MEMO_LIMIT = 10_000;

type Sums = { human: number; bot: number };
/** Sums by day (days since 1970), then link id, then platform code (0: people). Small-integer keys are fast. */
type Rollup = Map<number, Map<number, Array<Sums | undefined>>>;

const ROLLUP_UPSERT = `ON CONFLICT (link_id, day, platform) DO UPDATE SET human = human + excluded.human, bot = bot + excluded.bot`;

function addTo(rollup: Rollup, day: number, linkId: number, platform: number, human: number, bot: number) {
  let byLink = rollup.get(day);
  if (!byLink) rollup.set(day, (byLink = new Map()));
  let byPlatform = byLink.get(linkId);
  if (!byPlatform) byLink.set(linkId, (byPlatform = []));
  const sums = byPlatform[platform];
  if (sums) {
    sums.human += human;
    sums.bot += bot;
  } else byPlatform[platform] = { human, bot };
}

function mergeInto(target: Rollup, source: Rollup) {
  for (const [day, byLink] of source) {
    for (const [linkId, byPlatform] of byLink) byPlatform.forEach((sums, platform) => sums && addTo(target, day, linkId, platform, sums.human, sums.bot));
  }
}

/**
 * The connection should run with foreign_keys off: each batch checks its links' existence once instead of
 * SQLite checking every row (a view of a link whose owner was removed meanwhile is dropped).
 */
export class ViewStore {
  /** Counted in stored rows but not yet in the rollups. */
  private pending: Rollup = new Map();
  private lastFold = performance.now();
  /**
   * Views get ids from here, never reused: rows above the rollup mark must be new ones, even after the newest
   * rows were deleted with their owner.
   */
  private nextViewId: number;
  private readonly agentIds = new Map<string, number>();
  private readonly dayNames = new Map<number, string>();
  /** Platform names by code, '' (people) first; the classifier names a few dozen at most. */
  private readonly platforms = [""];
  private readonly platformCodes = new Map([["", 0]]);
  private readonly statements;
  private readonly transaction;

  constructor(private readonly sqlite: Database) {
    this.statements = {
      // Written as a join, SQLite looks each id up by key (twice as fast as IN over json_each here).
      liveLinks: sqlite.query<{ id: number }, [string]>(`SELECT l.id FROM json_each(?) j JOIN links l ON l.id = j.value`),
      findAgent: sqlite.query<{ id: number }, [string]>(`SELECT id FROM user_agents WHERE text = ?`),
      addAgent: sqlite.query<{ id: number }, [string]>(`INSERT INTO user_agents (text) VALUES (?) RETURNING id`),
      insertView: sqlite.query(
        `INSERT INTO views (id, user_id, link_id, ip, user_agent_id, attribution, is_bot, platform, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      addToRollup: sqlite.query(`INSERT INTO view_rollups (link_id, day, platform, human, bot) VALUES (?, ?, ?, ?, ?) ${ROLLUP_UPSERT}`),
      mark: sqlite.query<{ lastViewId: number }, []>(`SELECT last_view_id AS lastViewId FROM view_rollup_mark`),
      newestView: sqlite.query<{ id: number | null }, []>(`SELECT max(id) AS id FROM views`),
      setMark: sqlite.query(`UPDATE view_rollup_mark SET last_view_id = ?`),
    };
    this.transaction = sqlite.transaction((work: () => void) => work()).immediate as (work: () => void) => void;
    this.nextViewId = this.catchUp() + 1;
  }

  /** Folds in the rows a crash left beyond the mark; returns the highest view id ever given. */
  private catchUp(): number {
    let highest = 0;
    this.transaction(() => {
      const mark = this.statements.mark.get()!.lastViewId;
      this.sqlite.run(
        `INSERT INTO view_rollups (link_id, day, platform, human, bot)
         SELECT link_id, strftime('%Y-%m-%d', timestamp / 1000, 'unixepoch'), coalesce(platform, ''), sum(is_bot = 0), sum(is_bot)
         FROM views v WHERE id > ?1 AND EXISTS (SELECT 1 FROM links WHERE id = v.link_id) GROUP BY 1, 2, 3 ${ROLLUP_UPSERT}`,
        [mark],
      );
      highest = Math.max(mark, this.statements.newestView.get()!.id ?? 0);
      this.statements.setMark.run(highest);
    });
    return highest;
  }

  /** Whether stored rows are waiting to be folded into the rollups. */
  get behind(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Stores a batch's rows in one transaction, folding the rollups in with them when asked to or when they
   * have lagged long enough. Nothing in memory changes unless the transaction commits.
   */
  write(batch: ViewBatch | null, fold: boolean): void {
    const learnedAgents = new Map<string, number>();
    const added: Rollup = new Map();
    let nextViewId = this.nextViewId;
    const folding = fold || performance.now() - this.lastFold >= ROLLUP_LAG_MS;

    this.transaction(() => {
      // Past rows another server on the same data directory wrote meanwhile (the transaction holds the write
      // lock, so none can slip in between): ids never collide and only grow.
      nextViewId = Math.max(nextViewId, (this.statements.newestView.get()!.id ?? 0) + 1);
      if (batch) nextViewId = this.insertRows(batch, nextViewId, learnedAgents, added);
      if (folding) {
        // Into the batch's own sums, which a failed transaction simply drops.
        mergeInto(added, this.pending);
        for (const [dayNumber, byLink] of added) {
          const day = this.dayName(dayNumber);
          // A link deleted with its owner since its views were stored has no rollups to keep.
          for (const linkId of this.liveOf(byLink.keys()).sort((x, y) => x - y)) {
            byLink.get(linkId)!.forEach((sums, platform) => sums && this.statements.addToRollup.run(linkId, day, this.platforms[platform]!, sums.human, sums.bot));
          }
        }
        this.statements.setMark.run(nextViewId - 1);
      }
    });

    this.nextViewId = nextViewId;
    if (this.agentIds.size + learnedAgents.size > AGENT_MEMO_LIMIT) this.agentIds.clear();
    for (const [agent, id] of learnedAgents) this.agentIds.set(agent, id);
    if (folding) {
      this.pending = new Map();
      this.lastFold = performance.now();
    } else mergeInto(this.pending, added);
  }

  private insertRows(b: ViewBatch, firstId: number, learnedAgents: Map<string, number>, added: Rollup): number {
    const { findAgent, addAgent, insertView } = this.statements;
    const text = (index: number) => (index < 0 ? null : b.strings[index]!);
    const live = new Set(this.liveOf(new Set(b.linkId.subarray(0, b.size))));
    // The batch's User-Agents, by string index: looked up (or added) once each.
    const agentIdAt = new Map<number, number>();
    const agentId = (index: number) => {
      let id = agentIdAt.get(index);
      if (id === undefined) {
        const agent = b.strings[index]!;
        id = this.agentIds.get(agent) ?? learnedAgents.get(agent);
        if (id === undefined) learnedAgents.set(agent, (id = (findAgent.get(agent) ?? addAgent.get(agent)!).id));
        agentIdAt.set(index, id);
      }
      return id;
    };

    // The batch's platforms, by string index: coded once each.
    const platformCodeAt = new Map<number, number>([[-1, 0]]);
    const platformCode = (index: number) => {
      let code = platformCodeAt.get(index);
      if (code === undefined) {
        const name = b.strings[index]!;
        code = this.platformCodes.get(name);
        if (code === undefined) this.platformCodes.set(name, (code = this.platforms.push(name) - 1));
        platformCodeAt.set(index, code);
      }
      return code;
    };

    let id = firstId;
    for (let i = 0; i < b.size; i++) {
      const linkId = b.linkId[i]!;
      if (!live.has(linkId)) continue;
      const at = b.at[i]!;
      const isBot = b.isBot[i]!;
      insertView.run(id++, b.userId[i]!, linkId, text(b.ip[i]!), agentId(b.userAgent[i]!), text(b.attribution[i]!), isBot, text(b.platform[i]!), at);
      addTo(added, Math.floor(at / DAY_MS), linkId, platformCode(b.platform[i]!), isBot ? 0 : 1, isBot);
    }
    return id;
  }

  /** Which of these link ids still exist. */
  private liveOf(linkIds: Iterable<number>): number[] {
    return this.statements.liveLinks.all(JSON.stringify([...linkIds])).map((r) => r.id);
  }

  private dayName(day: number): string {
    let name = this.dayNames.get(day);
    if (name === undefined) this.dayNames.set(day, (name = new Date(day * DAY_MS).toISOString().slice(0, 10)));
    return name;
  }
}
