import { afterEach, describe, expect, it } from "vitest";
import { freePort, type OccupiedPort, occupyPort } from "../http/testing/occupyPort.js";
import { describeTakenPort, findTakenPorts, type StackPort, takenAfterCheck } from "./checkPortsFree.js";

const occupied: OccupiedPort[] = [];
const occupy = async (): Promise<number> => {
  const held = await occupyPort();
  occupied.push(held);
  return held.port;
};
afterEach(async () => {
  await Promise.all(occupied.splice(0).map((held) => held.close()));
});

const anvil = (port: number): StackPort => ({ service: "anvil", variable: "STACK_ANVIL_PORT", port });
const indexer = (port: number): StackPort => ({ service: "fixture indexer", variable: "STACK_INDEXER_PORT", port });

describe("findTakenPorts", () => {
  it("reports a port another program listens on, with its variable, and not a free one", async () => {
    const taken = await occupy();
    const free = await freePort();
    const found = await findTakenPorts([anvil(taken), indexer(free)]);
    expect(found).toEqual([{ ...anvil(taken), reason: "in-use", suggestion: expect.any(Number) }]);
    const [entry] = found;
    expect(entry?.suggestion).not.toBe(taken);
    expect(entry?.suggestion).not.toBe(free);
  });

  it("reports nothing when every port is free, and never checks port 0", async () => {
    expect(await findTakenPorts([anvil(await freePort()), indexer(0)])).toEqual([]);
  });

  it("releases the ports it checked, so the stack can bind them next", async () => {
    const free = await freePort();
    await findTakenPorts([anvil(free)]);
    const held = await occupyPort(free);
    await held.close();
  });

  it("reports a second variable that names the same port", async () => {
    const port = await freePort();
    const found = await findTakenPorts([anvil(port), indexer(port)]);
    expect(found).toEqual([{ ...indexer(port), reason: "duplicate", duplicateOf: anvil(port), suggestion: expect.any(Number) }]);
  });

  it("suggests a port that is free and none of the stack's own", async () => {
    const [first, second] = [await occupy(), await occupy()];
    const found = await findTakenPorts([anvil(first), indexer(second)]);
    const suggestions = found.map((entry) => entry.suggestion);
    expect(new Set(suggestions).size).toBe(2);
    for (const suggestion of suggestions) {
      expect([first, second]).not.toContain(suggestion);
      const held = await occupyPort(suggestion);
      await held.close();
    }
  });
});

describe("takenAfterCheck", () => {
  it("describes a port taken after the check like one found taken, suggesting none of the stack's ports", async () => {
    const port = await occupy();
    const other = await freePort();
    const entry = await takenAfterCheck(indexer(port), [anvil(other), indexer(port)]);
    expect(entry).toEqual({ ...indexer(port), reason: "in-use", suggestion: expect.any(Number) });
    expect([port, other]).not.toContain(entry.suggestion);
  });
});

describe("describeTakenPort", () => {
  it("names the port, the service and the variable, with a command to copy", () => {
    expect(describeTakenPort({ ...anvil(8545), reason: "in-use", suggestion: 18545 })).toBe(
      "port 8545 (anvil) is in use: set STACK_ANVIL_PORT to a free port, e.g. STACK_ANVIL_PORT=18545 make stack",
    );
    expect(describeTakenPort({ ...indexer(8545), reason: "duplicate", duplicateOf: anvil(8545), suggestion: 18546 })).toBe(
      "port 8545 (fixture indexer) is also STACK_ANVIL_PORT (anvil): set STACK_INDEXER_PORT to a free port, e.g. STACK_INDEXER_PORT=18546 make stack",
    );
    expect(describeTakenPort({ ...anvil(80), reason: "denied", suggestion: 10080 })).toBe(
      "port 80 (anvil) needs privileges to bind: set STACK_ANVIL_PORT to a free port, e.g. STACK_ANVIL_PORT=10080 make stack",
    );
  });
});
