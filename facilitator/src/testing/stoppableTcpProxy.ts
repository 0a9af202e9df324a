/**
 * Test harness: a TCP forwarder in front of a server (PostgreSQL here) that can be cut, as when the database
 * host goes away: the port stops accepting and every open connection is dropped at once, in the middle of
 * whatever it carried. `restore` listens again on the same port, so clients configured with its address
 * reconnect by themselves. Test-only code.
 */
import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** A running forwarder; `port` stays the same across `cut` and `restore`. */
export type StoppableTcpProxy = {
  host: string;
  port: number;
  /** Stops accepting and destroys every open connection (both sides). */
  cut: () => Promise<void>;
  /** Accepts again on the same port. */
  restore: () => Promise<void>;
};

/** Starts a forwarder on a free loopback port to `target`. */
export async function startStoppableTcpProxy(target: { host: string; port: number }): Promise<StoppableTcpProxy> {
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
    // A cut connection errors on both sides; the other side is destroyed with it below.
    socket.on("error", () => undefined);
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
    restore: () => listen(port),
  };
}
