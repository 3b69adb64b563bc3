// /admin/link/stats/:linkSlug: one link's statistics over 7, 30, 90 days or all time, each chart followed by
// the same numbers as a table and a CSV download of that table (/admin/link/stats/:linkSlug/csv).
import { csvRow } from "../http/csv.ts";
import { count, shortDate } from "../client/format.ts";
import { NO_REFERRER, OTHER_REFERRERS } from "../db/referrer-buckets.ts";
import type { LinkReport, ReportRange } from "../links/report.ts";
import { REPORT_RANGES } from "../links/report.ts";
import { CategoryChart, DayChart, platformName } from "./views-chart.tsx";

const RANGE_NAMES: Record<ReportRange, string> = { "7": "7 days", "30": "30 days", "90": "90 days", all: "All time" };
const PEOPLE = "#4f46e5";
const CRAWLERS = "#6b7280";
const UNIQUE = "#b45309";
const SCANS = "#047857";

export type StatsTable = "days" | "platforms" | "referrers";
export const parseTable = (value: unknown): StatsTable =>
  value === "platforms" || value === "referrers" ? value : "days";

const referrerName = (host: string) =>
  host === NO_REFERRER ? "Direct or none" : host === OTHER_REFERRERS ? "Other hosts" : host;

/** The rows of one of the page's tables, header first: what the table shows and its CSV holds. */
export function tableRows(report: LinkReport, table: StatsTable): Array<Array<string | number>> {
  if (table === "platforms")
    return [
      ["Platform", "Card fetches", "Verified", "Unverified", "Unverifiable"],
      ...report.platforms.map((p) => [platformName(p.platform), p.count, p.verified, p.unverified, p.unverifiable]),
    ];
  if (table === "referrers")
    return [["Referrer", "People"], ...report.referrers.map((r) => [referrerName(r.host), r.human])];
  return [
    ["Date", "People", "Crawlers", "Daily unique visitors", "QR scans"],
    ...report.days.map((d) => [d.date, d.human, d.bot, d.uniqueHumans, d.scans]),
  ];
}

export const reportCsv = (report: LinkReport, table: StatsTable) => tableRows(report, table).map(csvRow).join("");
export const reportCsvName = (report: LinkReport, table: StatsTable) =>
  `${report.link.linkSlug}-${table}-${report.range === "all" ? "all" : `${report.range}d`}.csv`;

const base = (report: LinkReport) => `/admin/link/stats/${encodeURIComponent(report.link.linkSlug)}`;

function Table({
  report,
  table,
  caption,
  columns,
}: {
  report: LinkReport;
  table: StatsTable;
  caption: string;
  columns?: number[];
}) {
  const [header, ...rows] = tableRows(report, table);
  const shown = (row: Array<string | number>) => (columns ? columns.map((i) => row[i]!) : row);
  return (
    <div className="mt-3">
      <div
        className="max-h-72 overflow-auto rounded-md border border-gray-200"
        tabIndex={0}
        role="region"
        aria-label={`${caption} (table)`}
      >
        <table className="w-full text-left text-sm" data-testid={`table-${table}`}>
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-gray-50">
            <tr>
              {shown(header!).map((cell) => (
                <th key={cell} scope="col" className="px-3 py-2 font-semibold">
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={String(row[0])} className="border-t border-gray-100">
                {shown(row).map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-3 py-1 font-normal">
                      {table === "days" ? shortDate(String(cell)) : cell}
                    </th>
                  ) : (
                    <td key={i} className="px-3 py-1 tabular-nums">
                      {count(Number(cell))}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <a
        href={`${base(report)}/csv?range=${report.range}&table=${table}`}
        download={reportCsvName(report, table)}
        className="mt-2 inline-block text-sm text-indigo-700 underline"
      >
        {`Download CSV (${caption.toLowerCase()})`}
      </a>
    </div>
  );
}

export function LinkStatsPage({ report }: { report: LinkReport }) {
  const { link, days, totals, platforms, referrers } = report;
  const dates = days.map((d) => d.date);
  const section = "rounded-lg border border-gray-200 p-4";
  return (
    <div className="space-y-6">
      <div>
        <a href="/admin" className="text-sm text-indigo-700 underline">
          ← Dashboard
        </a>
        <h1 className="mt-2 text-3xl font-bold break-words">{`Statistics: ${link.title}`}</h1>
        <p className="mt-1 break-all text-sm text-gray-600">{link.shortUrl}</p>
      </div>
      <nav aria-label="Range" className="flex flex-wrap gap-2">
        {REPORT_RANGES.map((range) => (
          <a
            key={range}
            href={`${base(report)}?range=${range}`}
            aria-current={range === report.range ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${range === report.range ? "bg-gray-900 text-white" : "border border-gray-300 text-gray-700 hover:bg-gray-50"}`}
          >
            {RANGE_NAMES[range]}
          </a>
        ))}
      </nav>
      <p className="text-sm text-gray-700" data-testid="stats-summary">
        {`${shortDate(dates[0]!)} to ${shortDate(dates.at(-1)!)}: ${count(totals.human)} people and ${count(totals.bot)} crawler fetches; ${count(totals.uniqueHumans)} daily unique visitors, summed; ${count(totals.scans)} QR scans.`}
      </p>
      <section aria-labelledby="visits" className={section}>
        <h2 id="visits" className="text-lg font-semibold">
          People and crawlers per day
        </h2>
        <DayChart
          title="People and crawlers per day"
          dates={dates}
          stacked
          yLabel="Visits"
          series={[
            { name: "People", colour: PEOPLE, values: days.map((d) => d.human) },
            { name: "Crawlers", colour: CRAWLERS, values: days.map((d) => d.bot) },
          ]}
        />
        <Table report={report} table="days" caption="Visits per day" columns={[0, 1, 2]} />
      </section>
      <section aria-labelledby="audience" className={section}>
        <h2 id="audience" className="text-lg font-semibold">
          Daily unique visitors and QR scans
        </h2>
        <DayChart
          title="Daily unique visitors and QR scans"
          dates={dates}
          stacked={false}
          yLabel="People"
          series={[
            { name: "Daily unique visitors", colour: UNIQUE, values: days.map((d) => d.uniqueHumans) },
            { name: "QR scans", colour: SCANS, values: days.map((d) => d.scans) },
          ]}
        />
        <Table report={report} table="days" caption="Unique visitors and QR scans per day" columns={[0, 3, 4]} />
      </section>
      <section aria-labelledby="platforms" className={section}>
        <h2 id="platforms" className="text-lg font-semibold">
          Platforms that fetched the card
        </h2>
        {platforms.length === 0 ? (
          <p className="mt-2 text-sm text-gray-600">No crawler fetched the card in this range.</p>
        ) : (
          <>
            <CategoryChart
              title="Card fetches by platform"
              colour={CRAWLERS}
              rows={platforms.map((p) => ({ label: platformName(p.platform), value: p.count }))}
            />
            <Table report={report} table="platforms" caption="Card fetches by platform" />
          </>
        )}
      </section>
      <section aria-labelledby="referrers" className={section}>
        <h2 id="referrers" className="text-lg font-semibold">
          Top referrers
        </h2>
        {referrers.length === 0 ? (
          <p className="mt-2 text-sm text-gray-600">Nobody followed the link in this range.</p>
        ) : (
          <>
            <CategoryChart
              title="People by referrer"
              colour={PEOPLE}
              rows={referrers.map((r) => ({ label: referrerName(r.host), value: r.human }))}
            />
            <Table report={report} table="referrers" caption="People by referrer" />
          </>
        )}
      </section>
    </div>
  );
}
