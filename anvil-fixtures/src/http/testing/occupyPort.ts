/**
 * A loopback port held by a real TCP server, for tests of what happens when a port is taken; and a port that
 * was free a moment ago, for tests that need a fixed number nothing listens on.
 */
import { once } from "node:events";
import { type AddressInfo, createServer } from "node:net";

/** A port another "program" holds until `close()`. */
export type OccupiedPort = { port: number; close: () => Promise<void> };

/** Binds a free loopback port (or `port`) and keeps it until `close()`. */
export async function occupyPort(port = 0): Promise<OccupiedPort> {
  const server = createServer();
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port that was free when asked: bound, read and released. */
export async function freePort(): Promise<number> {
  const occupied = await occupyPort();
  await occupied.close();
  return occupied.port;
}
