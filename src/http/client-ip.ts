// The visitor's address as we store it: truncated (IPv4 /24, IPv6 /48), because our users are in the EU
// and a full address is personal data we do not need.
import type { Server } from "bun";
import { boundedMemo } from "../bounded-memo.ts";

export function truncateIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return ip.replace(/\.\d+$/, ".0");
  if (ip.includes(":")) {
    const [head = "", tail = ""] = ip.split("::");
    const headGroups = head ? head.split(":") : [];
    const tailGroups = tail ? tail.split(":") : [];
    const groups = ip.includes("::")
      ? [...headGroups, ...Array(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0"), ...tailGroups]
      : headGroups;
    return `${groups.slice(0, 3).map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")).join(":")}::`;
  }
  return "";
}

/** truncateIp, remembered per address (10,000): the same visitors come back, and this runs on every click. */
export const truncateIpMemo = boundedMemo(10_000, truncateIp);

/**
 * The client's address: the first X-Forwarded-For hop when we sit behind a trusted proxy, else the socket's
 * (asked for only then: it costs a system call).
 */
export function clientIp(request: Request, server: Pick<Server<unknown>, "requestIP"> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "";
}
