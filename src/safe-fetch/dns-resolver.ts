// The one DNS client (custom domains' verification, crawlers' reverse DNS in the view writer: below both, with
// safe-fetch's other network access), and its implementation: UDP queries built and parsed with dns-packet, asked
// again over TCP when the answer comes back truncated (a TXT set too big for a datagram). Parsed here rather than
// through node:dns because Bun's resolveTxt returns each character-string of a TXT record as a record of its own,
// and because verification must tell a missing name from a failure.
import { createSocket } from "node:dgram";
import { getServers } from "node:dns";
import { connect, isIPv6 } from "node:net";
import * as packet from "dns-packet";

export type DnsRecord = { type: "TXT" | "CNAME" | "A" | "AAAA" | "PTR"; name: string; data: string };
/** records: the answer section (empty: the name has no record of that type); missing: NXDOMAIN; failed: anything transient. */
export type DnsAnswer =
  | { kind: "records"; records: DnsRecord[] }
  | { kind: "missing" }
  | { kind: "failed"; reason: string };

export interface DnsResolver {
  query(name: string, type: DnsRecord["type"]): Promise<DnsAnswer>;
}

type Server = { address: string; port: number };

/** "1.2.3.4", "1.2.3.4:53", "::1", "[::1]:5353". */
export function parseServer(text: string): Server {
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(text);
  if (bracketed) return { address: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  if (isIPv6(text)) return { address: text, port: 53 };
  const [address, port] = text.split(":");
  return { address: address!, port: Number(port ?? 53) };
}

/** One character-string per chunk, joined: a long TXT value arrives split into 255-byte chunks. */
function recordOf(answer: packet.Answer): DnsRecord | null {
  const name = answer.name.toLowerCase();
  if (answer.type === "TXT") {
    const chunks = Array.isArray(answer.data) ? answer.data : [answer.data];
    return {
      type: "TXT",
      name,
      data: chunks.map((chunk) => (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"))).join(""),
    };
  }
  if (answer.type === "CNAME" || answer.type === "A" || answer.type === "AAAA" || answer.type === "PTR")
    return { type: answer.type, name, data: String(answer.data).toLowerCase().replace(/\.$/, "") };
  return null;
}

/** What one response says; null when it was truncated (TC: the answer did not fit in a UDP datagram). */
function answerOf(server: Server, response: packet.Packet): DnsAnswer | null {
  if ((response as { flag_tc?: boolean }).flag_tc === true) return null;
  const rcode = (response as { rcode?: string }).rcode ?? "NOERROR";
  if (rcode === "NXDOMAIN") return { kind: "missing" };
  if (rcode !== "NOERROR") return { kind: "failed", reason: `${rcode} from ${server.address}` };
  return { kind: "records", records: (response.answers ?? []).map(recordOf).filter((record) => record !== null) };
}

const query = (id: number, name: string, type: DnsRecord["type"]): packet.Packet => ({
  type: "query",
  id,
  flags: packet.RECURSION_DESIRED,
  questions: [{ type, name }],
});

/**
 * One exchange over `transport`: it sends the query and calls back with each response packet it reads. Settles on
 * the first response of ours, on an error, or after timeoutMs; `close` releases the socket either way.
 */
function exchange(
  server: Server,
  timeoutMs: number,
  transport: (id: number, onPacket: (response: packet.Packet) => void, onError: (error: Error) => void) => () => void,
  id = Math.floor(Math.random() * 65_536),
): Promise<DnsAnswer | null> {
  return new Promise((resolve) => {
    let close = () => {};
    let settled = false;
    const done = (answer: DnsAnswer | null) => {
      // A socket may still report (an error, TCP's close) after the answer: only the first counts.
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      close();
      resolve(answer);
    };
    const timer = setTimeout(
      () => done({ kind: "failed", reason: `no answer from ${server.address} within ${timeoutMs} ms` }),
      timeoutMs,
    );
    close = transport(
      id,
      (response) => {
        if (response.id === id) done(answerOf(server, response));
      },
      (error) => done({ kind: "failed", reason: error.message }),
    );
  });
}

function overUdp(server: Server, name: string, type: DnsRecord["type"], timeoutMs: number): Promise<DnsAnswer | null> {
  return exchange(server, timeoutMs, (id, onPacket, onError) => {
    const socket = createSocket(isIPv6(server.address) ? "udp6" : "udp4");
    socket.on("error", onError);
    socket.on("message", (message) => {
      try {
        onPacket(packet.decode(message));
      } catch {
        // Not an answer of ours: keep waiting.
      }
    });
    socket.send(packet.encode(query(id, name, type)), server.port, server.address);
    return () => socket.close();
  });
}

/** The same question over TCP (length-prefixed messages), for an answer too big for UDP. */
function overTcp(server: Server, name: string, type: DnsRecord["type"], timeoutMs: number): Promise<DnsAnswer | null> {
  return exchange(server, timeoutMs, (id, onPacket, onError) => {
    const socket = connect({ host: server.address, port: server.port });
    let received = Buffer.alloc(0);
    socket.on("error", onError);
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, Buffer.from(chunk)]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      try {
        onPacket(packet.streamDecode(received));
      } catch (error) {
        onError(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.on("close", () => onError(new Error(`${server.address} closed the TCP connection without an answer`)));
    socket.write(packet.streamEncode(query(id, name, type)));
    return () => socket.destroy();
  });
}

async function ask(server: Server, name: string, type: DnsRecord["type"], timeoutMs: number): Promise<DnsAnswer> {
  const answer = (await overUdp(server, name, type, timeoutMs)) ?? (await overTcp(server, name, type, timeoutMs));
  return answer ?? { kind: "failed", reason: `${server.address} answered truncated over TCP too` };
}

/** Asks each server in turn until one answers (a definite answer, NXDOMAIN included); a failure only when none does. */
export function udpResolver(servers: string[], timeoutMs = 2000): DnsResolver {
  const list = (servers.length > 0 ? servers : getServers()).map(parseServer);
  return {
    async query(name, type) {
      let last: DnsAnswer = { kind: "failed", reason: "no DNS server configured" };
      for (const server of list) {
        last = await ask(server, name, type, timeoutMs);
        if (last.kind !== "failed") return last;
      }
      return last;
    },
  };
}
