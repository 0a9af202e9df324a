import { isIPv6 } from "node:net";
import { UsageError } from "./clipanion.js";

/** The loopback URL of a daemon listening on `host:port`; a wildcard bind is reached on loopback. */
export function daemonUrl(host: string, port: number): string {
  if (port === 0) throw new UsageError("listen.port is 0 (a random port): pass the daemon's address with --url");
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${isIPv6(reachable) ? `[${reachable}]` : reachable}:${port}`;
}
