// A real DNS server on loopback (UDP and TCP on one port, dns-packet), for the custom-domain verification tests and
// crawlers' reverse DNS: answers from a zone the test edits, without recursion (a CNAME is answered alone, as an
// authoritative server does), and can be told to fail a name (SERVFAIL) or leave it unanswered (a timeout). A name
// not in the zone is NXDOMAIN. An answer too big for a datagram goes out over UDP truncated, as a real server's does,
// and whole over TCP.
import { createSocket, type Socket } from "node:dgram";
import { createServer, type AddressInfo } from "node:net";
import * as packet from "dns-packet";

export type ZoneEntry = {
  /** Each TXT record as its character-strings (chunks), joined by the resolver. */
  txt?: string[][];
  cname?: string;
  a?: string[];
  aaaa?: string[];
  /** Reverse names (under in-addr.arpa / ip6.arpa): the hostnames the address says it is. */
  ptr?: string[];
  /** SERVFAIL for every question about this name; "timeout": no answer at all. */
  fail?: "servfail" | "timeout";
};

/** questions: every question answered (UDP and TCP); tcpQuestions: TCP connections (retries of truncated answers). */
export type TestDnsServer = {
  address: string;
  zone: Map<string, ZoneEntry>;
  questions: number;
  tcpQuestions: number;
  close: () => void;
};

/** A classic DNS datagram's limit (the resolver sends no EDNS): a longer answer goes out truncated (TC, no records). */
const UDP_LIMIT = 512;

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, ZoneEntry>();
  // TCP first on any free port, then UDP on the same port: the resolver retries a truncated answer there.
  const tcp = createServer((connection) => {
    let received = Buffer.alloc(0);
    connection.on("error", () => {});
    connection.on("data", (chunk) => {
      received = Buffer.concat([received, Buffer.from(chunk)]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      const response = respond(packet.streamDecode(received));
      received = Buffer.alloc(0);
      if (response) connection.write(packet.streamEncode(response));
    });
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  const port = (tcp.address() as AddressInfo).port;
  const socket: Socket = createSocket("udp4");
  const state: TestDnsServer = {
    address: "",
    zone,
    questions: 0,
    tcpQuestions: 0,
    close: () => {
      socket.close();
      tcp.close();
    },
  };
  tcp.on("connection", () => state.tcpQuestions++);

  function respond(query: packet.Packet): packet.Packet | null {
    const question = query.questions?.[0];
    if (!question) return null;
    state.questions++;
    const name = question.name.toLowerCase().replace(/\.$/, "");
    const entry = zone.get(name);
    if (entry?.fail === "timeout") return null;
    const answers: packet.Answer[] = [];
    if (entry?.cname && question.type !== "TXT") answers.push({ type: "CNAME", name, ttl: 60, data: entry.cname });
    else if (entry && question.type === "TXT")
      for (const chunks of entry.txt ?? [])
        answers.push({ type: "TXT", name, ttl: 60, data: chunks.map((chunk) => Buffer.from(chunk)) });
    else if (entry && question.type === "A")
      for (const address of entry.a ?? []) answers.push({ type: "A", name, ttl: 60, data: address });
    else if (entry && question.type === "AAAA")
      for (const address of entry.aaaa ?? []) answers.push({ type: "AAAA", name, ttl: 60, data: address });
    else if (entry && question.type === "PTR")
      for (const host of entry.ptr ?? []) answers.push({ type: "PTR", name, ttl: 60, data: host });
    const rcode = entry?.fail === "servfail" ? 2 : entry ? 0 : 3; // SERVFAIL, NOERROR, NXDOMAIN
    return {
      type: "response",
      id: query.id,
      flags: packet.AUTHORITATIVE_ANSWER | rcode,
      questions: [question],
      answers: rcode === 0 ? answers : [],
    };
  }

  socket.on("message", (message, remote) => {
    const response = respond(packet.decode(message));
    if (!response) return;
    let encoded = packet.encode(response);
    if (encoded.length > UDP_LIMIT)
      encoded = packet.encode({ ...response, flags: (response.flags ?? 0) | packet.TRUNCATED_RESPONSE, answers: [] });
    socket.send(encoded, remote.port, remote.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, "127.0.0.1", resolve);
  });
  state.address = `127.0.0.1:${port}`;
  return state;
}
