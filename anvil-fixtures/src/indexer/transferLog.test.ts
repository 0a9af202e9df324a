import { zerc20Protocol } from "@svc/scheme";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { TransferLog } from "./transferLog.js";

const address = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;

/** The same recipients and values, sent from different accounts. */
const transfers = (fromBase: number) => [
  { from: address(fromBase), to: address(2), value: 3n },
  { from: address(fromBase + 1), to: address(4), value: 5n },
];

function logOf(version: "zerc20-v1" | "zerc20-v2", fromBase: number): TransferLog {
  const log = new TransferLog(zerc20Protocol(version));
  transfers(fromBase).forEach((transfer, index) => {
    log.append({ ...transfer, index, blockNumber: 1n });
  });
  return log;
}

describe("TransferLog", () => {
  it.each(["zerc20-v1", "zerc20-v2"] as const)("%s: leaves and hash chain follow the version's formulas", (version) => {
    const protocol = zerc20Protocol(version);
    const log = logOf(version, 10);
    const [first, second] = transfers(10);
    const afterFirst = protocol.nextHashChain(0n, first!);
    expect([log.hashChainAt(0), log.hashChainAt(1), log.hashChainAt(2)]).toEqual([0n, afterFirst, protocol.nextHashChain(afterFirst, second!)]);
    const reference = new TransferLog(protocol);
    expect(reference.tree.rootAt(0)).toBe(log.tree.rootAt(0));
    expect(log.tree.pathAt(2, 0)[0]).toBe(protocol.transferLeaf(second!));
  });

  it("v1 ignores `from`, v2 commits to it in leaves and hash chain", () => {
    const v1 = [logOf("zerc20-v1", 10), logOf("zerc20-v1", 20)];
    const v2 = [logOf("zerc20-v2", 10), logOf("zerc20-v2", 20)];
    expect(v1[0]!.tree.rootAt(2)).toBe(v1[1]!.tree.rootAt(2));
    expect(v1[0]!.hashChainAt(2)).toBe(v1[1]!.hashChainAt(2));
    expect(v2[0]!.tree.rootAt(2)).not.toBe(v2[1]!.tree.rootAt(2));
    expect(v2[0]!.hashChainAt(2)).not.toBe(v2[1]!.hashChainAt(2));
  });

  it("refuses a transfer out of index order", () => {
    const log = new TransferLog(zerc20Protocol("zerc20-v2"));
    expect(() => log.append({ index: 1, from: address(1), to: address(2), value: 1n, blockNumber: 1n })).toThrow(RangeError);
  });
});
