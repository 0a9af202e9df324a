import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getAddress, type Hex } from "viem";
import { describe, expect, it } from "vitest";

import { deriveBurnSeed } from "../challenges/burnSeed.js";
import { TEST_TREASURY_PK } from "../config/testing/buildConfig.js";
import { BurnAddressStockFile } from "./burnAddressStockFile.js";

const binding = {
  protocol: "zerc20-v2" as const,
  chainId: 31337,
  treasury: getAddress("0x9999999999999999999999999999999999999999"),
  seed: deriveBurnSeed(TEST_TREASURY_PK),
};
const id = (byte: number) => `0x${byte.toString(16).padStart(2, "0").repeat(32)}` as Hex;

async function freshPath(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "burn-stock-file-")), "journal.jsonl.stock");
}

async function lines(path: string): Promise<unknown[]> {
  return (await readFile(path, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
}

describe("BurnAddressStockFile", () => {
  it("keeps what was added and not taken, in order, across reopenings", async () => {
    const path = await freshPath();
    const first = await BurnAddressStockFile.open(path, binding);
    expect(first.restored).toEqual([]);
    expect(first.discarded).toBeUndefined();
    await Promise.all([first.add({ paymentId: id(1), nonce: 11n }), first.add({ paymentId: id(2), nonce: 22n }), first.add({ paymentId: id(3), nonce: 33n })]);
    await first.take(id(2));
    await first.close();

    const second = await BurnAddressStockFile.open(path, binding);
    expect(second.restored).toEqual([
      { paymentId: id(1), nonce: 11n },
      { paymentId: id(3), nonce: 33n },
    ]);
    await second.close();
    // Opening compacts: the header and the two live entries, nothing secret.
    const content = await lines(path);
    expect(content).toHaveLength(3);
    expect(content[0]).toMatchObject({ kind: "svc-burn-address-stock", version: 1, chain_id: 31337 });
    expect(JSON.stringify(content)).not.toContain(binding.seed.slice(2));
    expect(content.slice(1)).toEqual([
      { add: id(1), nonce: "11" },
      { add: id(3), nonce: "33" },
    ]);
  });

  it("has a take on disk by the time it resolves", async () => {
    const path = await freshPath();
    const stock = await BurnAddressStockFile.open(path, binding);
    await stock.add({ paymentId: id(7), nonce: 1n });
    await stock.take(id(7));
    // Read while the file is still open, as a crash right now would leave it.
    expect((await lines(path)).at(-1)).toEqual({ take: id(7) });
    await stock.close();
  });

  it("discards a stock written for another treasury, chain or seed", async () => {
    const path = await freshPath();
    const stock = await BurnAddressStockFile.open(path, binding);
    await stock.add({ paymentId: id(1), nonce: 1n });
    await stock.close();
    for (const other of [
      { ...binding, chainId: 1 },
      { ...binding, treasury: getAddress("0x8888888888888888888888888888888888888888") },
      { ...binding, seed: deriveBurnSeed(`0x${"11".repeat(32)}`) },
    ]) {
      const reopened = await BurnAddressStockFile.open(path, other);
      expect(reopened.restored).toEqual([]);
      expect(reopened.discarded).toBe("binding_changed");
      await reopened.close();
      // Rewritten for the new binding, so switching back finds nothing either.
      const back = await BurnAddressStockFile.open(path, binding);
      expect(back.restored).toEqual([]);
      await back.close();
    }
  });

  it("starts afresh from a damaged file, and ignores a torn last line", async () => {
    const path = await freshPath();
    const stock = await BurnAddressStockFile.open(path, binding);
    await stock.add({ paymentId: id(1), nonce: 1n });
    await stock.add({ paymentId: id(2), nonce: 2n });
    await stock.close();

    // A take cut short by a crash was never acknowledged, so its entry is still in stock.
    await appendFile(path, `{"take":"${id(2).slice(0, 20)}`);
    const torn = await BurnAddressStockFile.open(path, binding);
    expect(torn.restored.map((entry) => entry.paymentId)).toEqual([id(1), id(2)]);
    await torn.close();

    const content = await readFile(path, "utf8");
    await writeFile(path, content.replace(`"nonce":"1"`, `"nonce":"one"`));
    const damaged = await BurnAddressStockFile.open(path, binding);
    expect(damaged.discarded).toBe("damaged");
    expect(damaged.restored).toEqual([]);
    await damaged.close();

    await writeFile(path, `${content}not json\n{"take":"${id(1)}"}\n`);
    const garbled = await BurnAddressStockFile.open(path, binding);
    expect(garbled.discarded).toBe("damaged");
    expect(garbled.restored).toEqual([]);
    await garbled.close();
  });

  it("stays small over a long run of adds and takes", async () => {
    const path = await freshPath();
    const stock = await BurnAddressStockFile.open(path, binding);
    for (let round = 1; round <= 200; round++) {
      await stock.add({ paymentId: id(round), nonce: BigInt(round) });
      if (round > 2) await stock.take(id(round - 2));
    }
    expect((await lines(path)).length).toBeLessThan(80);
    await stock.close();
    const reopened = await BurnAddressStockFile.open(path, binding);
    expect(reopened.restored).toEqual([
      { paymentId: id(199), nonce: 199n },
      { paymentId: id(200), nonce: 200n },
    ]);
    await reopened.close();
  });
});
