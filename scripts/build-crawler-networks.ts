// Builds src/views/crawler-networks/networks.txt, the address ranges the view writer checks a crawler's claim
// against (src/views/crawler-networks.ts, docs/decisions/0066): the platforms' published crawler lists (kept as
// snapshots in src/views/crawler-networks/official/) and the prefixes of their autonomous systems, taken from
// @ip-location-db/asn (63 MB: installed into a temporary directory, never a dependency of the project).
//
//   npm run crawler-networks                       fetch the official lists, install the AS data, write both
//   npm run crawler-networks -- --offline --asn DIR  use the snapshots as they are and an unpacked package at DIR
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import ipaddr from "ipaddr.js";

const DATA = join(import.meta.dir, "../src/views/crawler-networks");

/** The published lists: where each is, and how to read its prefixes. */
const OFFICIAL: ReadonlyArray<{ network: string; name: string; url: string; format: "google-json" | "lines" }> = [
  {
    network: "google",
    name: "Googlebot",
    url: "https://developers.google.com/static/search/apis/ipranges/googlebot.json",
    format: "google-json",
  },
  { network: "bing", name: "Bingbot", url: "https://www.bing.com/toolbox/bingbot.json", format: "google-json" },
  {
    network: "apple",
    name: "Applebot",
    url: "https://search.developer.apple.com/applebot.json",
    format: "google-json",
  },
  { network: "telegram", name: "Telegram", url: "https://core.telegram.org/resources/cidr.txt", format: "lines" },
];

/**
 * The autonomous systems whose whole network counts as the platform's: Meta (Facebook, WhatsApp, Instagram,
 * meta-externalagent), X (Twitter's three AS numbers) and LinkedIn, each checked by name in the data.
 */
const AUTONOMOUS_SYSTEMS: ReadonlyArray<{ network: string; numbers: number[] }> = [
  { network: "meta", numbers: [32934] },
  { network: "x", numbers: [13414, 35995, 63179] },
  { network: "linkedin", numbers: [14413] },
];

const { values: args } = parseArgs({ options: { offline: { type: "boolean" }, asn: { type: "string" } } });
const today = new Date().toISOString().slice(0, 10);

async function fetchOfficial(entry: (typeof OFFICIAL)[number]): Promise<string[]> {
  const response = await fetch(entry.url);
  if (!response.ok) throw new Error(`${entry.url}: ${response.status}`);
  if (entry.format === "lines")
    return (await response.text())
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
  const list = (await response.json()) as { prefixes: Array<{ ipv4Prefix?: string; ipv6Prefix?: string }> };
  return list.prefixes.map((prefix) => prefix.ipv4Prefix ?? prefix.ipv6Prefix!);
}

const readPrefixes = (network: string) =>
  readFileSync(join(DATA, "official", `${network}.txt`), "utf8")
    .split("\n")
    .filter((line) => line && !line.startsWith("#"));

/** A range as numbers (IPv4 and IPv6 apart: the kind is kept in `v6`). */
type Range = { v6: boolean; first: bigint; last: bigint };
const toNumber = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
  address.toByteArray().reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
const fromNumber = (n: bigint, v6: boolean) => {
  const length = v6 ? 16 : 4;
  const bytes = Array.from({ length }, (_, i) => Number((n >> BigInt(8 * (length - 1 - i))) & 255n));
  return ipaddr.fromByteArray(bytes).toString();
};

function cidrRange(cidr: string): Range {
  const v6 = cidr.includes(":");
  const kind = v6 ? ipaddr.IPv6 : ipaddr.IPv4;
  return {
    v6,
    first: toNumber(kind.networkAddressFromCIDR(cidr)),
    last: toNumber(kind.broadcastAddressFromCIDR(cidr)),
  };
}

/** Sorted, with touching or overlapping ranges joined: the file stays small and each lookup finds one range. */
function merged(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => Number(a.v6) - Number(b.v6) || (a.first < b.first ? -1 : 1));
  const out: Range[] = [];
  for (const range of sorted) {
    const last = out.at(-1);
    if (last && last.v6 === range.v6 && range.first <= last.last + 1n) {
      if (range.last > last.last) last.last = range.last;
    } else out.push({ ...range });
  }
  return out;
}

function asnPackage(): { dir: string; cleanUp: () => void } {
  if (args.asn) return { dir: args.asn, cleanUp: () => {} };
  const prefix = mkdtempSync(join(tmpdir(), "linkprev-asn-"));
  const installed = Bun.spawnSync(["npm", "install", "--prefix", prefix, "--no-save", "@ip-location-db/asn"], {
    stdout: "inherit",
    stderr: "inherit",
  });
  if (installed.exitCode !== 0) throw new Error("npm install @ip-location-db/asn failed");
  return {
    dir: join(prefix, "node_modules/@ip-location-db/asn"),
    cleanUp: () => rmSync(prefix, { recursive: true, force: true }),
  };
}

/** The ranges of each network's AS numbers, read from the package's CSV files (first,last,asn,organisation). */
function autonomousSystemRanges(dir: string): Map<string, Range[]> {
  const networkOf = new Map(AUTONOMOUS_SYSTEMS.flatMap(({ network, numbers }) => numbers.map((n) => [n, network])));
  const ranges = new Map<string, Range[]>();
  for (const file of ["asn-ipv4.csv", "asn-ipv6.csv"]) {
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      const [first, last, asn] = line.split(",");
      const network = networkOf.get(Number(asn));
      if (!network || !first || !last) continue;
      const range = {
        v6: first.includes(":"),
        first: toNumber(ipaddr.parse(first)),
        last: toNumber(ipaddr.parse(last)),
      };
      ranges.set(network, [...(ranges.get(network) ?? []), range]);
    }
  }
  return ranges;
}

if (!args.offline) {
  for (const entry of OFFICIAL) {
    const prefixes = await fetchOfficial(entry);
    const header = [
      `# ${entry.name}'s published addresses: ${entry.url}`,
      `# Fetched on ${today} by \`npm run crawler-networks\`, which fetches the list again and rewrites this file.`,
    ];
    writeFileSync(join(DATA, "official", `${entry.network}.txt`), `${[...header, ...prefixes].join("\n")}\n`);
  }
}

const asn = asnPackage();
try {
  const version = (JSON.parse(readFileSync(join(asn.dir, "package.json"), "utf8")) as { version: string }).version;
  const networks = new Map<string, Range[]>(
    OFFICIAL.map(({ network }) => [network, readPrefixes(network).map(cidrRange)]),
  );
  for (const [network, ranges] of autonomousSystemRanges(asn.dir)) networks.set(network, ranges);
  for (const { network } of AUTONOMOUS_SYSTEMS)
    if (!networks.get(network)?.length) throw new Error(`no prefixes for ${network}: check its AS numbers`);
  const lines = [
    `# Built on ${today} by \`npm run crawler-networks\` (scripts/build-crawler-networks.ts) from`,
    `# @ip-location-db/asn ${version} (AS prefixes; attribution in NOTICE.md) and the published lists in official/.`,
    "# One network a line: its name, then its address ranges (first-last).",
    ...[...networks].map(
      ([network, ranges]) =>
        `${network} ${merged(ranges)
          .map((range) => `${fromNumber(range.first, range.v6)}-${fromNumber(range.last, range.v6)}`)
          .join(" ")}`,
    ),
  ];
  writeFileSync(join(DATA, "networks.txt"), `${lines.join("\n")}\n`);
  console.log(`wrote ${join(DATA, "networks.txt")}: ${networks.size} networks`);
} finally {
  asn.cleanUp();
}
