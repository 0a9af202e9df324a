/**
 * Whether the ports `make stack` will use are free, asked before anything starts: a port found taken once anvil
 * runs and the contracts are deployed costs seconds, and anvil on a taken port only exits with an OS error. Each
 * port is bound where the stack's services will bind it (loopback, no SO_REUSEPORT), so what binds here binds
 * there, and released before the stack starts. A suggested replacement is checked the same way and is never
 * another of the stack's own ports.
 */
import { once } from "node:events";
import { type AddressInfo, createServer, Server } from "node:net";

/** A port the stack will use and the variable that moves it. */
export type StackPort = {
  /** What listens there, as the user knows it ("anvil", "fixture indexer"). */
  service: string;
  /** The environment variable that sets the port (`STACK_ANVIL_PORT`). */
  variable: string;
  /** 0 means any free port: never taken, never checked. */
  port: number;
};

/**
 * Why the stack cannot use a port: another program listens there (`in-use`), binding it needs privileges this
 * process lacks (`denied`), or an earlier port of the list has the same number (`duplicate`).
 */
export type TakenReason = { reason: "in-use" | "denied" } | { reason: "duplicate"; duplicateOf: StackPort };

/** A port the stack cannot use, and one to suggest instead (free when checked). */
export type TakenPort = StackPort & TakenReason & { suggestion: number };

const LOOPBACK = "127.0.0.1";
/** A suggestion starts this far from the taken port, so it keeps the original's last digits (8545 → 18545). */
const SUGGESTION_OFFSET = 10_000;
const SUGGESTION_TRIES = 20;

/** The ports of `ports` the stack cannot use, in the order given; empty when every one is free. */
export async function findTakenPorts(ports: readonly StackPort[]): Promise<TakenPort[]> {
  const held: Server[] = [];
  const unusable: (StackPort & TakenReason)[] = [];
  try {
    for (const [index, entry] of ports.entries()) {
      if (entry.port === 0) continue;
      const duplicateOf = ports.slice(0, index).find((earlier) => earlier.port === entry.port);
      if (duplicateOf !== undefined) {
        unusable.push({ ...entry, reason: "duplicate", duplicateOf });
        continue;
      }
      const bound = await bind(entry.port);
      if (bound instanceof Server) held.push(bound);
      else unusable.push({ ...entry, reason: bound });
    }
    const avoid = new Set(ports.map((entry) => entry.port));
    const taken: TakenPort[] = [];
    for (const entry of unusable) {
      const suggestion = await suggestFreePort(entry.port, avoid);
      avoid.add(suggestion);
      taken.push({ ...entry, suggestion });
    }
    return taken;
  } finally {
    await Promise.all(held.map(close));
  }
}

/**
 * `entry` as {@link findTakenPorts} would have reported it had it been taken already: for a port another program
 * bound between the check and the start. The suggestion avoids every port of `ports`.
 */
export async function takenAfterCheck(entry: StackPort, ports: readonly StackPort[]): Promise<TakenPort> {
  return { ...entry, reason: "in-use", suggestion: await suggestFreePort(entry.port, new Set(ports.map((other) => other.port))) };
}

/** The line that tells the user which port is taken and which variable moves it, with a command to copy. */
export function describeTakenPort(taken: TakenPort): string {
  const fix = `set ${taken.variable} to a free port, e.g. ${taken.variable}=${taken.suggestion} make stack`;
  switch (taken.reason) {
    case "in-use":
      return `port ${taken.port} (${taken.service}) is in use: ${fix}`;
    case "denied":
      return `port ${taken.port} (${taken.service}) needs privileges to bind: ${fix}`;
    case "duplicate":
      return `port ${taken.port} (${taken.service}) is also ${taken.duplicateOf.variable} (${taken.duplicateOf.service}): ${fix}`;
  }
}

/** A bound server, or why the port cannot be bound; any other failure is not about the port and is thrown. */
async function bind(port: number): Promise<Server | "in-use" | "denied"> {
  try {
    return await listenOn(port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") return "in-use";
    if (code === "EACCES") return "denied";
    throw error;
  }
}

/** A port near `port` (same last digits where possible) that is free now and not in `avoid`; else one the OS picks. */
async function suggestFreePort(port: number, avoid: ReadonlySet<number>): Promise<number> {
  const first = port + SUGGESTION_OFFSET <= 65_535 ? port + SUGGESTION_OFFSET : port - SUGGESTION_OFFSET;
  for (let candidate = first; candidate < first + SUGGESTION_TRIES && candidate <= 65_535; candidate++) {
    if (avoid.has(candidate)) continue;
    const bound = await bind(candidate);
    if (bound instanceof Server) {
      await close(bound);
      return candidate;
    }
  }
  const any = await listenOn(0);
  const { port: picked } = any.address() as AddressInfo;
  await close(any);
  return picked;
}

async function listenOn(port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, LOOPBACK);
  await once(server, "listening");
  return server;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
