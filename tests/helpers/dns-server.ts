// A real DNS server on loopback (UDP, dns-packet), for the custom-domain verification tests: answers from a zone
// the test edits, without recursion (a CNAME is answered alone, as an authoritative server does), and can be told
// to fail a name (SERVFAIL) or leave it unanswered (a timeout). A name not in the zone is NXDOMAIN.
import { createSocket, type Socket } from "node:dgram";
import * as packet from "dns-packet";

export type ZoneEntry = {
  /** Each TXT record as its character-strings (chunks), joined by the resolver. */
  txt?: string[][];
  cname?: string;
  a?: string[];
  aaaa?: string[];
  /** SERVFAIL for every question about this name; "timeout": no answer at all. */
  fail?: "servfail" | "timeout";
};

export type TestDnsServer = { address: string; zone: Map<string, ZoneEntry>; questions: number; close: () => void };

export async function startDnsServer(): Promise<TestDnsServer> {
  const socket: Socket = createSocket("udp4");
  const zone = new Map<string, ZoneEntry>();
  const state: TestDnsServer = { address: "", zone, questions: 0, close: () => socket.close() };
  socket.on("message", (message, remote) => {
    const query = packet.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    state.questions++;
    const name = question.name.toLowerCase().replace(/\.$/, "");
    const entry = zone.get(name);
    if (entry?.fail === "timeout") return;
    const answers: packet.Answer[] = [];
    if (entry?.cname && question.type !== "TXT") answers.push({ type: "CNAME", name, ttl: 60, data: entry.cname });
    else if (entry && question.type === "TXT") for (const chunks of entry.txt ?? []) answers.push({ type: "TXT", name, ttl: 60, data: chunks.map((chunk) => Buffer.from(chunk)) });
    else if (entry && question.type === "A") for (const address of entry.a ?? []) answers.push({ type: "A", name, ttl: 60, data: address });
    else if (entry && question.type === "AAAA") for (const address of entry.aaaa ?? []) answers.push({ type: "AAAA", name, ttl: 60, data: address });
    const rcode = entry?.fail === "servfail" ? 2 : entry ? 0 : 3; // SERVFAIL, NOERROR, NXDOMAIN
    const response = packet.encode({ type: "response", id: query.id, flags: packet.AUTHORITATIVE_ANSWER | rcode, questions: [question], answers: rcode === 0 ? answers : [] });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  state.address = `127.0.0.1:${socket.address().port}`;
  return state;
}
