import { isIPv4, isIPv6 } from "node:net";

/**
 * The rate-limit key of a client address: an IPv4 address as is, an IPv6 address as its /64 network. One
 * IPv6 subscriber is routinely given a whole /64 and can pick any address in it, so a per-address key would
 * hand it 2^64 buckets. Anything that is not an IP address (a trusted proxy forwarding junk) is its own key.
 */
export function rateLimitKey(clientIp: string): string {
  if (isIPv4(clientIp) || !isIPv6(clientIp)) return clientIp;
  const groups = expandIpv6(clientIp);
  // An IPv4-mapped address is an IPv4 client; keying it on its /64 would put every IPv4 client in one bucket.
  if (groups.slice(0, 6).join(":") === "0:0:0:0:0:ffff") return ipv4FromGroups(groups);
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, each as lowercase hex without leading zeros. */
function expandIpv6(address: string): string[] {
  let text = address.split("%")[0] ?? address;
  const tailStart = text.lastIndexOf(":") + 1;
  const tail = text.slice(tailStart);
  if (tail.includes(".")) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split(".").map(Number);
    text = `${text.slice(0, tailStart)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const restGroups = rest === undefined || rest === "" ? [] : rest.split(":");
  const zeros = rest === undefined ? [] : Array.from({ length: 8 - headGroups.length - restGroups.length }, () => "0");
  return [...headGroups, ...zeros, ...restGroups].map((group) => Number.parseInt(group, 16).toString(16));
}

function ipv4FromGroups(groups: readonly string[]): string {
  const high = Number.parseInt(groups[6] ?? "0", 16);
  const low = Number.parseInt(groups[7] ?? "0", 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}
