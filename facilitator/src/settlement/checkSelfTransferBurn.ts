/**
 * The chain evidence of a self-transfer burn: a successful receipt, an IndexedTransfer of at least the quoted
 * amount to the burn address on the right token, the burn address holding the funds, and inclusion no later
 * than the offer's expiry. Read-only.
 *
 * One JSON-RPC round trip unless the burn may be late. The receipt, the latest block and the balance go out as
 * one batch. Block timestamps only grow along a chain, so when the latest block (read after the receipt, at or
 * above its block) is not past the expiry, neither is the burn's block, and that block is never read. Only when
 * the latest block is past the expiry is the receipt's own block read by hash in a second trip, for the exact
 * inclusion time the refusal and the operator's record need (unless the latest block is that block). The
 * balance is read at the latest block in every case: a burn address has no key, so its balance can only grow
 * after the burn.
 */
import {
  BURN_AFTER_EXPIRY,
  BURN_BALANCE_MISSING,
  BURN_RECEIPT_MISSING,
  BURN_REVERTED,
  TRANSFER_BELOW_AMOUNT,
  zerc20TokenAbi,
  type ReasonCode,
} from "@svc/scheme";
import { getAddress, isAddressEqual, parseEventLogs, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient } from "viem";

/** What the burn must satisfy. */
export type SelfTransferBurnExpectation = {
  token: Address;
  payTo: Address;
  amount: bigint;
  /** Unix seconds; a burn in a later block is refused. */
  expiresAt: number;
  burnTxHash: Hex;
};

/** Evidence of an acceptable burn. */
export type SelfTransferBurnEvidence = {
  payer: Address;
  blockNumber: bigint;
  /** Value of the IndexedTransfer that covers the amount. */
  value: bigint;
};

/** Evidence of a burn included after the offer expired: with its block's timestamp, for the operator. */
export type LateBurnEvidence = SelfTransferBurnEvidence & { blockTimestamp: number };

/** The check's outcome; `late` carries what the operator needs to judge a burn that landed after expiry. */
export type SelfTransferBurnCheck = { ok: true; evidence: SelfTransferBurnEvidence } | { ok: false; reason: ReasonCode; late?: LateBurnEvidence };

/** Checks a self-transfer burn against its offer. Throws only when the RPC itself fails. */
export async function checkSelfTransferBurn(client: PublicClient, expected: SelfTransferBurnExpectation): Promise<SelfTransferBurnCheck> {
  // One batch: the RPC transport (`coalesceJsonRpc`) sends calls made in the same tick together.
  const [receipt, latest, balance] = await Promise.all([
    client.getTransactionReceipt({ hash: expected.burnTxHash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    }),
    client.getBlock({ blockTag: "latest" }),
    client.readContract({ address: expected.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [expected.payTo] }),
  ]);
  if (!receipt) return { ok: false, reason: BURN_RECEIPT_MISSING };
  if (receipt.status !== "success") return { ok: false, reason: BURN_REVERTED };

  const transfer = parseEventLogs({ abi: zerc20TokenAbi, eventName: "IndexedTransfer", logs: receipt.logs, strict: true }).find(
    (log) => isAddressEqual(log.address, expected.token) && isAddressEqual(log.args.to, expected.payTo) && log.args.value >= expected.amount,
  );
  if (!transfer) return { ok: false, reason: TRANSFER_BELOW_AMOUNT };

  const evidence: SelfTransferBurnEvidence = { payer: getAddress(receipt.from), blockNumber: receipt.blockNumber, value: transfer.args.value };
  const inTimeByLatest = latest.number !== null && latest.number >= receipt.blockNumber && Number(latest.timestamp) <= expected.expiresAt;
  if (!inTimeByLatest) {
    // By hash, not number: a block that replaced the receipt's in a reorg must not lend it its timestamp.
    const block = latest.hash === receipt.blockHash ? latest : await client.getBlock({ blockHash: receipt.blockHash });
    const blockTimestamp = Number(block.timestamp);
    if (blockTimestamp > expected.expiresAt) return { ok: false, reason: BURN_AFTER_EXPIRY, late: { ...evidence, blockTimestamp } };
  }
  if (balance < expected.amount) return { ok: false, reason: BURN_BALANCE_MISSING };
  return { ok: true, evidence };
}
