// A loopback port for a server a test starts. Chosen below the kernel's ephemeral range (ip_local_port_range,
// 32768–60999 by default): the server binds it a moment (for a child process, seconds) after this probe, and
// npm test runs its passes side by side (scripts/test-passes.mjs), whose outgoing connections and port-0 listeners
// take ephemeral ports; a port outside that range is not handed to them in between.
const FIRST = 20_000;
const LAST = 32_767;

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    try {
      Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }).stop(true);
      return port;
    } catch {
      // In use: try another.
    }
  }
  throw new Error(`No free loopback port between ${FIRST} and ${LAST}`);
}
