/**
 * Two real agent processes reserving against the same ledger at once: the file lock and atomic rename must
 * keep the total within SVC_MAX_TOTAL, and a rolling window within its limit, exactly, with no reservation
 * lost or duplicated.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { builtModule } from "../testing/builtAgent.js";
import { buildReserveInput } from "../testing/buildReserveInput.js";
import { makeTempDir } from "../testing/tempDir.js";
import { Ledger } from "./ledger.js";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.remove());

/** A child that reserves `attempts` times (amount 1, fresh offer each) after the parent says go, then reports. */
function startRacer(
  stateDir: string,
  limits: string,
  attempts: number,
  amount: string,
): { child: ChildProcess; ready: Promise<void>; result: Promise<{ won: number; lost: number }> } {
  const script = `
    import { Ledger } from ${JSON.stringify(builtModule("ledger/ledger.js"))};
    import { randomBytes } from "node:crypto";
    import { createInterface } from "node:readline";
    const ledger = new Ledger(${JSON.stringify(stateDir)});
    console.log("ready");
    await new Promise((resolve) => createInterface({ input: process.stdin }).once("line", resolve));
    let won = 0, lost = 0;
    for (let i = 0; i < ${attempts}; i++) {
      const result = await ledger.reserve({
        url: "http://127.0.0.1/x", mode: "permit", network: "eip155:31337",
        asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3", amount: ${amount}n,
        payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
        challengeNonce: "0x" + randomBytes(32).toString("hex"), expiresAt: 1900000300,
      }, ${limits});
      if (result.kind === "reserved") won++; else lost++;
    }
    console.log(JSON.stringify({ won, lost }));
    process.exit(0);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  let markReady: () => void = () => undefined;
  let failReady: (error: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  const result = new Promise<{ won: number; lost: number }>((resolve, reject) => {
    lines.on("line", (line) => {
      if (line === "ready") markReady();
      else resolve(JSON.parse(line) as { won: number; lost: number });
    });
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`racer exited with ${code}`));
    });
  });
  // A racer that dies before "ready" fails the wait for it at once (a no-op once it was ready); its result,
  // never awaited then, is not reported a second time as an unhandled rejection.
  child.once("close", (code) => failReady(new Error(`racer exited with ${code} before it was ready`)));
  result.catch(() => undefined);
  return { child, ready, result };
}

/** `limits` is the reserve limits object as JavaScript source, e.g. `{ maxTotal: 25n }`. */
async function race(limits: string, attempts: number, amount: string) {
  const racers = [startRacer(dir.path, limits, attempts, amount), startRacer(dir.path, limits, attempts, amount)];
  await Promise.all(racers.map((racer) => racer.ready));
  for (const racer of racers) racer.child.stdin?.write("go\n");
  return Promise.all(racers.map((racer) => racer.result));
}

describe("reservations from two processes", () => {
  it("only one of two processes gets the last room under SVC_MAX_TOTAL", async () => {
    const ledger = new Ledger(dir.path);
    await ledger.reserve(buildReserveInput({ amount: 900n }), { maxTotal: 1000n });
    const results = await race("{ maxTotal: 1000n }", 1, "100");
    expect(results.map((result) => result.won).sort()).toEqual([0, 1]);
    const entries = await ledger.entries();
    expect(entries.reduce((sum, entry) => sum + BigInt(entry.amount), 0n)).toBe(1000n);
  });

  it("many interleaved reservations never exceed the cap and none is lost", async () => {
    const results = await race("{ maxTotal: 25n }", 40, "1");
    expect(results.reduce((sum, result) => sum + result.won, 0)).toBe(25);
    expect(results.reduce((sum, result) => sum + result.lost, 0)).toBe(55);
    const entries = await new Ledger(dir.path).entries();
    expect(entries).toHaveLength(25);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(25);
  });

  it("many interleaved reservations never exceed SVC_MAX_PER_DAY, and spend older than the window does not count", async () => {
    const twoDaysAgo = Date.now() - 2 * 24 * 3_600_000;
    await new Ledger(dir.path, { now: () => twoDaysAgo }).reserve(buildReserveInput({ amount: 900n }), {});
    const results = await race("{ maxPerDay: 25n }", 40, "1");
    expect(results.reduce((sum, result) => sum + result.won, 0)).toBe(25);
    const entries = await new Ledger(dir.path).entries();
    expect(entries).toHaveLength(26);
    expect(entries.filter((entry) => Date.parse(entry.createdAt) > twoDaysAgo).reduce((sum, entry) => sum + entry.amount, 0n)).toBe(25n);
  });
});
