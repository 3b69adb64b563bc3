// The one DNS port verification uses, and its implementation: plain UDP queries built and parsed with
// dns-packet. Parsed here rather than through node:dns because Bun's resolveTxt returns each character-string
// of a TXT record as a record of its own, and because verification must tell a missing name from a failure.
import { createSocket } from "node:dgram";
import { getServers } from "node:dns";
import { isIPv6 } from "node:net";
import * as packet from "dns-packet";

export type DnsRecord = { type: "TXT" | "CNAME" | "A" | "AAAA"; name: string; data: string };
/** records: the answer section (empty: the name has no record of that type); missing: NXDOMAIN; failed: anything transient. */
export type DnsAnswer = { kind: "records"; records: DnsRecord[] } | { kind: "missing" } | { kind: "failed"; reason: string };

export interface DnsResolver {
  query(name: string, type: "TXT" | "CNAME" | "A" | "AAAA"): Promise<DnsAnswer>;
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
    return { type: "TXT", name, data: chunks.map((chunk) => (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"))).join("") };
  }
  if (answer.type === "CNAME" || answer.type === "A" || answer.type === "AAAA") return { type: answer.type, name, data: String(answer.data).toLowerCase().replace(/\.$/, "") };
  return null;
}

function ask(server: Server, name: string, type: DnsRecord["type"], timeoutMs: number): Promise<DnsAnswer> {
  return new Promise((resolve) => {
    const socket = createSocket(isIPv6(server.address) ? "udp6" : "udp4");
    const id = Math.floor(Math.random() * 65_536);
    const done = (answer: DnsAnswer) => {
      clearTimeout(timer);
      socket.close();
      resolve(answer);
    };
    const timer = setTimeout(() => done({ kind: "failed", reason: `no answer from ${server.address} within ${timeoutMs} ms` }), timeoutMs);
    socket.on("error", (error) => done({ kind: "failed", reason: error.message }));
    socket.on("message", (message) => {
      let response: packet.Packet;
      try {
        response = packet.decode(message);
      } catch {
        return; // Not an answer of ours: keep waiting.
      }
      if (response.id !== id) return;
      const rcode = (response as { rcode?: string }).rcode ?? "NOERROR";
      if (rcode === "NXDOMAIN") return done({ kind: "missing" });
      if (rcode !== "NOERROR") return done({ kind: "failed", reason: `${rcode} from ${server.address}` });
      done({ kind: "records", records: (response.answers ?? []).map(recordOf).filter((record) => record !== null) });
    });
    socket.send(packet.encode({ type: "query", id, flags: packet.RECURSION_DESIRED, questions: [{ type, name }] }), server.port, server.address);
  });
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
