// `linkprev admin reports|links|hosts|users|audit`: the operators' trust-and-safety actions, on the database
// directly (src/admin/safety.ts); each is written to the audit log with who did it and why.
import type { Command } from "commander";
import type { Config } from "../src/config/config.ts";
import { openSafety } from "../src/admin/safety.ts";
import { printable } from "../src/observability/printable.ts";
import { listAudit } from "../src/safety/audit.ts";
import type { SafetyDeps } from "../src/safety/deps.ts";
import { findLinkByAddress } from "../src/safety/find-link.ts";
import { blockHost, unblockHost } from "../src/safety/host-blocks.ts";
import { changeLinkStatus } from "../src/safety/link-status.ts";
import { listReports, resolveReport } from "../src/safety/reports.ts";
import { setSuspended } from "../src/safety/suspend-user.ts";
import { setTrusted } from "../src/safety/trust-user.ts";

type Options = { data?: string; databaseUrl?: string; reason?: string; by?: string };
const actorOf = (options: Options) => options.by ?? process.env.USER ?? "operator";
/** A tab-separated row of text that anyone may have written (a report's details, a reason): one row, these columns. */
const tsvRow = (cells: Array<string | number | null>) => cells.map((cell) => printable(String(cell ?? ""))).join("\t");

/** Adds the commands under `admin`; `configFrom` reads --data and the environment as the other admin commands do. */
export function registerSafetyCommands(admin: Command, configFrom: (options: Options) => Config): void {
  // The running command's options, taken before its action (commander hands them as a trailing argument).
  let options: Options = {};
  const run =
    (work: (deps: SafetyDeps, ...args: string[]) => Promise<void>) =>
    async (...args: unknown[]) => {
      const { deps, close } = await openSafety(configFrom(options));
      try {
        await work(deps, ...(args.filter((arg) => typeof arg === "string") as string[]));
      } finally {
        await close();
      }
    };
  const common = (command: Command) =>
    command
      .option("--data <dir>", "data directory (env DATA_DIR, default ./data)")
      .option("--by <name>", "who acts, for the audit log (default $USER)");
  const withReason = (command: Command) =>
    common(command).requiredOption("--reason <text>", "why, for the audit log and the owner");
  const remember = (command: Command) => command.hook("preAction", (_, action) => void (options = action.opts()));

  const reports = admin.command("reports").description("Reports sent from inspect pages and POST /api/reports");
  remember(
    common(reports.command("list").description("Open reports, oldest first").option("--all", "resolved ones too")),
  ).action(
    run(async (deps) => {
      for (const r of await listReports(deps.database.db, Boolean((options as { all?: boolean }).all))) {
        console.log(
          tsvRow([
            r.id,
            r.createdAt.toISOString(),
            r.address,
            r.reason,
            r.status,
            r.targetUrl,
            r.resolvedAt ? `resolved: ${r.resolution}` : "open",
            r.details,
          ]),
        );
      }
    }),
  );
  remember(withReason(reports.command("resolve").description("Mark a report handled").argument("<id>"))).action(
    run(async (deps, id) => {
      await resolveReport(deps, Number(id), options.reason!, actorOf(options));
      console.log(`Report ${id} resolved`);
    }),
  );

  const links = admin.command("links").description("Disable or enable a link (by its short address)");
  for (const [name, status] of [
    ["disable", "disabled"],
    ["enable", "active"],
  ] as const) {
    remember(
      withReason(
        links
          .command(name)
          .description(`${name === "disable" ? "Disable" : "Enable"} the link at ADDRESS (user/link or its short URL)`)
          .argument("<address>"),
      ),
    ).action(
      run(async (deps, address) => {
        const link = await findLinkByAddress(deps.database.db, address);
        const reason = status === "disabled" ? `Operator: ${options.reason}` : null;
        await changeLinkStatus(
          deps,
          [link.id],
          { status, reason, actor: actorOf(options), why: options.reason! },
          new Date(),
        );
        console.log(`${link.userSlug}/${link.linkSlug}: ${status}`);
      }),
    );
  }

  const hosts = admin.command("hosts").description("Block a target host (and its subdomains) on this instance");
  remember(
    withReason(
      hosts
        .command("block")
        .argument("<host>")
        .description("Refuse future targets on HOST and disable the live links on it"),
    ),
  ).action(
    run(async (deps, host) =>
      console.log(
        `${host} blocked; ${await blockHost(deps, host, actorOf(options), options.reason!)} live link(s) disabled`,
      ),
    ),
  );
  remember(
    withReason(
      hosts.command("unblock").argument("<host>").description("Allow HOST again (disabled links stay disabled)"),
    ),
  ).action(
    run(async (deps, host) => {
      await unblockHost(deps, host, actorOf(options), options.reason!);
      console.log(`${host} unblocked`);
    }),
  );

  const users = admin
    .command("users")
    .description("Suspend an account (no sign-in, links disabled), or trust one (no new-account limits)");
  for (const [name, suspended] of [
    ["suspend", true],
    ["unsuspend", false],
  ] as const) {
    remember(
      withReason(
        users
          .command(name)
          .argument("<email>")
          .description(
            suspended
              ? "Suspend the account of EMAIL and disable its links"
              : "Lift the suspension and enable the links it disabled",
          ),
      ),
    ).action(
      run(async (deps, email) =>
        console.log(
          `${email}: ${suspended ? "suspended" : "unsuspended"}; ${await setSuspended(deps, email, suspended, actorOf(options), options.reason!)} link(s) ${suspended ? "disabled" : "enabled"}`,
        ),
      ),
    );
  }

  for (const [name, trusted] of [
    ["trust", true],
    ["untrust", false],
  ] as const) {
    remember(common(users.command(name).argument("<email>").option("--reason <text>", "why, for the audit log")))
      .description(
        trusted
          ? "Exempt EMAIL's account from the new-account limits (NEW_ACCOUNT_LINKS)"
          : "Apply the new-account limits to EMAIL's account again",
      )
      .action(
        run(async (deps, email) => {
          await setTrusted(deps, email, trusted, actorOf(options), options.reason ?? "");
          console.log(
            `${email}: ${trusted ? "trusted: the new-account limits do not apply" : "no longer trusted: the new-account limits apply"}`,
          );
        }),
      );
  }

  remember(
    common(
      admin
        .command("audit")
        .description("The audit log: who did what, when and why (tab-separated; --json for an export)")
        .option("--json", "one JSON object per line")
        .option("--since <date>", "from this date (ISO 8601)"),
    ),
  ).action(
    run(async (deps) => {
      const { json, since } = options as { json?: boolean; since?: string };
      for (const row of await listAudit(deps.database.db, since ? new Date(since) : undefined)) {
        console.log(
          json
            ? JSON.stringify({ ...row, at: row.at.toISOString() })
            : tsvRow([row.at.toISOString(), row.actor, row.action, row.subject, row.reason]),
        );
      }
    }),
  );
}
