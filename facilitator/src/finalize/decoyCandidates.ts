/**
 * Which transfers may stand in for a payment's leaf in a `/proofs` request. A decoy only hides the real leaf
 * if the indexer cannot tell them apart: a leaf of another value, a mint (from the zero address), a fee sweep
 * from the treasury or a funding transfer to an account that later spends is ruled out at a glance, and the
 * real leaf is the one left. So a decoy must look exactly like a payment burn:
 *
 * - the same value as the real leaf;
 * - not a mint: `from` is not the zero address;
 * - not one of ours: neither `from` nor `to` is the treasury (mints land there, sweeps and fee distributions
 *   leave from it; the relayer and minter move no tokens);
 * - into a burn address: `to` is not the zero address and never sends in the scanned blocks (a burn address
 *   has no key, so it never spends; an account that was funded does).
 *
 * And the blocks they are drawn from must not point at the real leaf: a window of {@link DECOY_WINDOW_BLOCKS}
 * blocks placed at random around the real leaf's block (it may sit anywhere in it, not at its start or centre).
 */
import { randomInt } from "node:crypto";
import { type Address, isAddressEqual, zeroAddress } from "viem";
import type { ScannedTransfer } from "./createTransferScanner.js";

/** Blocks the decoys of one payment are drawn from: one `eth_getLogs` chunk, hours of a busy token. */
export const DECOY_WINDOW_BLOCKS = 2_000n;

/** A block range, both ends included. */
export type BlockWindow = { from: bigint; to: bigint };

/**
 * A window of `length` blocks holding `realBlock` at a uniformly drawn offset, so the real leaf's place in the
 * decoys' range says nothing. `draw(n)` returns an integer in [0, n). On a chain younger than one window (the
 * real block below `length`) the window is the chain's first `length` blocks: every window there holds the
 * real leaf anyway, and one drawn to start after block 0 would only leave out the oldest burns, which a young
 * token has few of (a rare price could then find fewer than three decoys while the chain holds them).
 */
export function decoyWindow(realBlock: bigint, length: bigint = DECOY_WINDOW_BLOCKS, draw: (below: number) => number = randomInt): BlockWindow {
  const offset = BigInt(draw(Number(length)));
  if (realBlock < length) return { from: 0n, to: length - 1n };
  return { from: realBlock - offset, to: realBlock - offset + length - 1n };
}

/** What {@link qualifiedDecoys} rules out besides the burn address itself: our own addresses. */
export type DecoyExclusions = { payTo: Address; ours: readonly Address[] };

/**
 * The transfers of `window` that pass for a payment burn of one of `values` (see the module comment);
 * `senders` holds every lowercased `from` of the scanned blocks, which tells a burn address from an account.
 */
export function qualifiedDecoys(
  transfers: Iterable<ScannedTransfer>,
  values: ReadonlySet<bigint>,
  senders: ReadonlySet<string>,
  exclude: DecoyExclusions,
): ScannedTransfer[] {
  const ours = (address: Address) => exclude.ours.some((own) => isAddressEqual(own, address));
  const qualified: ScannedTransfer[] = [];
  for (const transfer of transfers) {
    if (!values.has(transfer.value)) continue;
    if (isAddressEqual(transfer.from, zeroAddress) || ours(transfer.from)) continue;
    if (isAddressEqual(transfer.to, zeroAddress) || ours(transfer.to) || isAddressEqual(transfer.to, exclude.payTo)) continue;
    if (senders.has(transfer.to.toLowerCase())) continue;
    qualified.push(transfer);
  }
  return qualified;
}
