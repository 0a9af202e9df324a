import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AddressSchema, Bytes32Schema, DecimalStringSchema, NetworkSchema, PaymentIdSchema, VisibleIdSchema } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINES_PER_PAYMENT, writeSyntheticHistory, type SyntheticHistoryShape } from "./syntheticHistory.js";

const END_AT = 1_760_000_000;

const shape: SyntheticHistoryShape = {
  bindings: { payer: { tenantId: "bench-payers", actorId: "bench-payer" }, provider: { tenantId: "bench-providers", actorId: "bench-provider" } },
  network: "eip155:31337",
  asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  endAt: END_AT,
  seed: "test",
};

const INTENT_KEYS = ["v", "type", "paymentId", "at", "path", "network", "asset", "payTo", "amount", "recipient", "bindings", "salt"];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "bench-history-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readRecords(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("writeSyntheticHistory", () => {
  it("writes intent, accepted and finalized lines per payment whose fields pass the history format's schemas", async () => {
    const path = join(dir, "small.jsonl");
    const written = await writeSyntheticHistory(path, 8, shape);
    const records = await readRecords(path);
    expect(records.map((record) => record.type)).toEqual(["intent", "accepted", "finalized", "intent", "accepted", "finalized", "intent", "accepted"]);
    expect(written).toEqual({ records: 8, bytes: (await stat(path)).size });

    for (const record of records) {
      expect(record.v).toBe(1);
      expect(PaymentIdSchema.safeParse(record.paymentId).success).toBe(true);
      expect(Number.isInteger(record.at)).toBe(true);
    }
    const intents = records.filter((record) => record.type === "intent");
    for (const intent of intents) {
      expect(Object.keys(intent).filter((key) => key !== "payer")).toEqual(INTENT_KEYS);
      expect(["permit", "self-transfer"]).toContain(intent.path);
      expect(NetworkSchema.safeParse(intent.network).success).toBe(true);
      for (const key of ["asset", "payTo", "recipient"]) expect(AddressSchema.safeParse(intent[key]).success).toBe(true);
      if (intent.payer !== undefined) expect(AddressSchema.safeParse(intent.payer).success).toBe(true);
      expect(DecimalStringSchema.safeParse(intent.amount).success).toBe(true);
      expect(intent.salt).toMatch(/^[0-9a-f]{64}$/);
      expect(intent.bindings).toEqual(shape.bindings);
      for (const binding of Object.values(shape.bindings)) expect(VisibleIdSchema.safeParse(binding.tenantId).success).toBe(true);
    }
    // Each payment's lines name its intent's id, ids differ between payments, and time moves forward.
    for (const [index, record] of records.entries()) {
      expect(record.paymentId).toBe(records[index - (index % LINES_PER_PAYMENT)]?.paymentId);
    }
    expect(new Set(intents.map((intent) => intent.paymentId)).size).toBe(3);
    expect(new Set(intents.map((intent) => intent.payTo)).size).toBe(3);
    expect(intents.map((intent) => intent.at)).toEqual([END_AT - 60, END_AT - 30, END_AT]);
    for (const record of records.filter((line) => line.type === "accepted")) expect(Bytes32Schema.safeParse(record.burnTxHash).success).toBe(true);
    for (const record of records.filter((line) => line.type === "finalized")) expect(Bytes32Schema.safeParse(record.mintTxHash).success).toBe(true);
  });

  it("streams a file of many batches to exactly the asked line count and byte size", async () => {
    const path = join(dir, "large.jsonl");
    const written = await writeSyntheticHistory(path, 10_000, shape);
    const records = await readRecords(path);
    expect(records).toHaveLength(10_000);
    expect(written.bytes).toBe((await stat(path)).size);
    expect(new Set(records.filter((record) => record.type === "intent").map((record) => record.paymentId)).size).toBe(3334);
    expect(records.at(-1)?.type).toBe("intent");
  });

  it("writes an empty file for zero records", async () => {
    const path = join(dir, "empty.jsonl");
    expect(await writeSyntheticHistory(path, 0, shape)).toEqual({ records: 0, bytes: 0 });
    expect((await stat(path)).size).toBe(0);
  });
});
