/**
 * Loopback detection for the listen host and the RPC host. Only literal loopback forms count (127.0.0.0/8,
 * ::1 and IPv4-mapped loopback, `localhost`); names are never resolved, so a host that merely resolves to
 * loopback today is treated as reachable, which errs toward demanding an admin token.
 */
import { BlockList, isIP } from "node:net";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** Whether `host` (a bare host, or a URL hostname with IPv6 brackets) is a loopback address or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const name = bare.toLowerCase().replace(/\.$/, "");
  if (name === "localhost") return true;
  const family = isIP(bare);
  if (family === 4) return loopback.check(bare, "ipv4");
  if (family === 6) return loopback.check(bare, "ipv6");
  return false;
}

/** Whether the host of `url` is loopback; an unparseable URL counts as not loopback. */
export function isLoopbackUrl(url: string): boolean {
  return URL.canParse(url) && isLoopbackHost(new URL(url).hostname);
}
