/**
 * A loopback HTTP round-robin: each request goes to the next of the targets, as a load balancer in front
 * of several facilitator instances would send it. Bodies and headers pass through unchanged; a target that
 * does not answer gives a 502.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/** A running round-robin. */
export type RoundRobin = { url: string; stop: () => Promise<void> };

/** Starts a round-robin on a free loopback port over the base URLs `targets()` returns at each request. */
export async function startRoundRobin(targets: () => readonly string[]): Promise<RoundRobin> {
  let turn = 0;
  const server = createServer((incoming, outgoing) => {
    const live = targets();
    const target = new URL(live[turn++ % live.length] ?? "http://127.0.0.1:9");
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
