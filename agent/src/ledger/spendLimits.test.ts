import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { buildReserveInput } from "../testing/buildReserveInput.js";
import { makeTempDir } from "../testing/tempDir.js";
import { Ledger, LEDGER_FILE } from "./ledger.js";
import { limitUsage } from "./spendLimits.js";

const HOUR = 3_600_000;
const START = Date.parse("2026-01-01T00:00:00.000Z");

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let clock: number;
let ledger: Ledger;
beforeEach(async () => {
  dir = await makeTempDir();
  clock = START;
  ledger = new Ledger(dir.path, { now: () => clock });
});
afterEach(() => dir.remove());

describe("rolling windows", () => {
  it("refuses what would exceed the window, naming the limit and when its oldest payment leaves it", async () => {
    expect((await ledger.reserve(buildReserveInput({ amount: 60n }), { maxPerHour: 100n })).kind).toBe("reserved");
    clock = START + 10 * 60_000;
    expect((await ledger.reserve(buildReserveInput({ amount: 30n }), { maxPerHour: 100n })).kind).toBe("reserved");
    expect(await ledger.reserve(buildReserveInput({ amount: 11n }), { maxPerHour: 100n })).toEqual({
      kind: "over-cap",
      limit: "maxPerHour",
      spentBefore: 90n,
      cap: 100n,
      freesAt: START + HOUR,
    });
    expect((await ledger.reserve(buildReserveInput({ amount: 10n }), { maxPerHour: 100n })).kind).toBe("reserved");
  });

  it("frees a payment's amount exactly when it leaves the window", async () => {
    await ledger.reserve(buildReserveInput({ amount: 100n }), { maxPerDay: 100n });
    clock = START + 24 * HOUR - 1;
    expect(await ledger.reserve(buildReserveInput({ amount: 1n }), { maxPerDay: 100n })).toMatchObject({ kind: "over-cap", freesAt: START + 24 * HOUR });
    clock = START + 24 * HOUR;
    expect((await ledger.reserve(buildReserveInput({ amount: 100n }), { maxPerDay: 100n })).kind).toBe("reserved");
  });

  it("checks every window and the total, the first one full refusing", async () => {
    await ledger.reserve(buildReserveInput({ amount: 50n }), {});
    clock = START + 2 * HOUR;
    const limits = { maxTotal: 1000n, maxPerHour: 100n, maxPerDay: 60n };
    expect(await ledger.reserve(buildReserveInput({ amount: 20n }), limits)).toMatchObject({ kind: "over-cap", limit: "maxPerDay", spentBefore: 50n });
    expect(await ledger.reserve(buildReserveInput({ amount: 20n }), { ...limits, maxTotal: 60n })).toMatchObject({ kind: "over-cap", limit: "maxTotal" });
  });

  it("does not count released entries nor other tokens, and counts unknown and failed ones", async () => {
    const released = await ledger.reserve(buildReserveInput({ amount: 100n }), {});
    if (released.kind !== "reserved") throw new Error("expected a reservation");
    await ledger.recordOutcome(released.entry.id, { status: "released", message: "nothing paid" });
    await ledger.reserve(buildReserveInput({ amount: 100n, asset: "0x0000000000000000000000000000000000000001" }), {});
    expect((await ledger.reserve(buildReserveInput({ amount: 100n }), { maxPerWeek: 100n })).kind).toBe("reserved");
    const entries = await ledger.entries();
    const last = entries.at(-1);
    if (last === undefined) throw new Error("expected an entry");
    await ledger.recordOutcome(last.id, { status: "unknown", message: "timeout" });
    clock = START + 29 * 24 * HOUR;
    expect(await ledger.reserve(buildReserveInput({ amount: 1n }), { maxPerMonth: 100n })).toMatchObject({
      kind: "over-cap",
      limit: "maxPerMonth",
      spentBefore: 100n,
    });
    expect((await ledger.reserve(buildReserveInput({ amount: 1n }), { maxPerWeek: 100n })).kind).toBe("reserved");
  });

  it("reports the usage and the oldest counted payment's exit without reserving", async () => {
    await ledger.reserve(buildReserveInput({ amount: 5n }), {});
    clock = START + HOUR / 2;
    await ledger.reserve(buildReserveInput({ amount: 7n }), {});
    const scope = { network: "eip155:31337", asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3" };
    const entries = await ledger.entries();
    expect(limitUsage(entries, "maxPerHour", scope, START + HOUR / 2)).toEqual({ used: 12n, freesAt: START + HOUR });
    expect(limitUsage(entries, "maxPerHour", scope, START + HOUR)).toEqual({ used: 7n, freesAt: START + (3 * HOUR) / 2 });
    expect(limitUsage(entries, "maxTotal", scope, START + 100 * HOUR)).toEqual({ used: 12n, freesAt: undefined });
  });
});

describe("per-host and per-MCP-session budgets", () => {
  it("keeps a budget per host name, whatever the port or path", async () => {
    const limits = { maxPerHost: 100n };
    await ledger.reserve(buildReserveInput({ amount: 80n, url: "http://api.example.com:8080/a" }), limits);
    expect((await ledger.reserve(buildReserveInput({ amount: 80n, url: "http://other.example.com/a" }), limits)).kind).toBe("reserved");
    expect(await ledger.reserve(buildReserveInput({ amount: 21n, url: "https://API.example.com/b" }), limits)).toMatchObject({
      kind: "over-cap",
      limit: "maxPerHost",
      spentBefore: 80n,
    });
  });

  it("keeps a budget per MCP session, stores the session on the entry, and ignores payments outside MCP", async () => {
    const limits = { maxPerMcpSession: 100n };
    await ledger.reserve(buildReserveInput({ amount: 90n }), limits);
    const first = await ledger.reserve(buildReserveInput({ amount: 90n, mcpSession: "a" }), limits);
    expect(first).toMatchObject({ kind: "reserved", entry: { mcpSession: "a" } });
    expect(await ledger.reserve(buildReserveInput({ amount: 11n, mcpSession: "a" }), limits)).toMatchObject({ kind: "over-cap", limit: "maxPerMcpSession" });
    expect((await ledger.reserve(buildReserveInput({ amount: 90n, mcpSession: "b" }), limits)).kind).toBe("reserved");
    expect((await new Ledger(dir.path).entries()).map((entry) => entry.mcpSession)).toEqual([undefined, "a", "b"]);
  });

  it("loads a ledger written before entries named a session", async () => {
    const input = buildReserveInput();
    const entry = {
      ...input,
      amount: "5",
      id: "0123456789ab",
      createdAt: new Date(START).toISOString(),
      updatedAt: new Date(START).toISOString(),
      status: "settled",
    };
    await writeFile(join(dir.path, LEDGER_FILE), JSON.stringify({ version: 1, entries: [entry] }));
    expect(await ledger.reserve(buildReserveInput({ amount: 96n, mcpSession: "a" }), { maxPerMcpSession: 100n, maxTotal: 100n })).toMatchObject({
      kind: "over-cap",
      limit: "maxTotal",
      spentBefore: 5n,
    });
  });
});
