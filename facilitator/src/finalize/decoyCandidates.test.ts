import type { Address } from "viem";
import { zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import type { ScannedTransfer } from "./createTransferScanner.js";
import { DECOY_WINDOW_BLOCKS, decoyWindow, qualifiedDecoys } from "./decoyCandidates.js";

const address = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;
const TREASURY = address(0x7ea5);
const PAY_TO = address(0xb0);
const PAYER = address(0xa1);

let index = 0n;
const transfer = (from: Address, to: Address, value: bigint): ScannedTransfer => ({ event_index: index++, from, to, value, eth_block_number: 1n });

describe("qualifiedDecoys", () => {
  const senders = (transfers: readonly ScannedTransfer[]) => new Set(transfers.map((one) => one.from.toLowerCase()));
  const exclude = { payTo: PAY_TO, ours: [TREASURY] };

  it("keeps only same-value payment burns: no other value, mint, sweep, funding, burn to zero or to the burn address itself", () => {
    const burn = transfer(PAYER, address(0xb1), 500n);
    const otherBurn = transfer(address(0xa2), address(0xb2), 500n);
    const transfers = [
      burn,
      otherBurn,
      transfer(PAYER, address(0xb3), 501n), // another value
      transfer(zeroAddress, TREASURY, 500n), // our mint
      transfer(zeroAddress, address(0xb4), 500n), // anyone's mint
      transfer(TREASURY, address(0xfee), 500n), // a fee sweep
      transfer(PAYER, TREASURY, 500n), // into the treasury
      transfer(address(0xde), address(0xa3), 500n), // funding: the recipient spends below
      transfer(address(0xa3), address(0xb5), 7n),
      transfer(PAYER, zeroAddress, 500n),
      transfer(PAYER, PAY_TO, 500n), // the real burn address's own transfer
    ];
    expect(qualifiedDecoys(transfers, new Set([500n]), senders(transfers), exclude)).toEqual([burn, otherBurn]);
  });

  it("keeps several values apart only by the values asked for, and compares addresses in any case", () => {
    const upper = address(0xb6).toUpperCase().replace("0X", "0x") as Address;
    const transfers = [transfer(PAYER, upper, 1n), transfer(PAYER, address(0xb7), 2n), transfer(TREASURY.toLowerCase() as Address, address(0xb8), 2n)];
    const found = qualifiedDecoys(transfers, new Set([1n, 2n]), senders(transfers), {
      payTo: PAY_TO,
      ours: [TREASURY.toUpperCase().replace("0X", "0x") as Address],
    });
    expect(found.map((one) => one.value)).toEqual([1n, 2n]);
  });
});

describe("decoyWindow", () => {
  it("holds the real block at the drawn offset, so it is neither always the start nor the centre", () => {
    expect(decoyWindow(10_000n, 100n, () => 0)).toEqual({ from: 10_000n, to: 10_099n });
    expect(decoyWindow(10_000n, 100n, () => 99)).toEqual({ from: 9_901n, to: 10_000n });
    expect(decoyWindow(10_000n, 100n, () => 30)).toEqual({ from: 9_970n, to: 10_069n });
    expect(decoyWindow(10n, 100n, () => 50)).toEqual({ from: 0n, to: 99n });
  });

  it("is the chain's first window on a chain younger than one window, whatever the draw: no early burn is left out", () => {
    for (const offset of [0, 100, 1_999]) expect(decoyWindow(150n, 2_000n, () => offset)).toEqual({ from: 0n, to: 1_999n });
    expect(decoyWindow(1_999n, 2_000n, () => 0)).toEqual({ from: 0n, to: 1_999n });
    expect(decoyWindow(2_000n, 2_000n, () => 0)).toEqual({ from: 2_000n, to: 3_999n });
  });

  it("draws the placement at random within the default length", () => {
    const windows = Array.from({ length: 20 }, () => decoyWindow(1_000_000n));
    for (const window of windows) {
      expect(window.to - window.from + 1n).toBe(DECOY_WINDOW_BLOCKS);
      expect(window.from <= 1_000_000n && 1_000_000n <= window.to).toBe(true);
    }
    expect(new Set(windows.map((window) => window.from)).size).toBeGreaterThan(1);
  });
});
