/**
 * The reorg watch: before each finalize pass it follows every accepted burn and every finalized payment's
 * mint until its block is final (chain/chainFinality.ts), and answers what a reorg did to them:
 *
 * - a burn still pending in the node's pool (a reorg usually puts its transactions back) is waited for;
 * - a permit burn the chain no longer holds is looked up in the replay ledger (`BurnExecuted`: executed
 *   elsewhere, followed there), else relayed again with the payer's signed authorization while it is valid
 *   (journaled as `burn_reorged` before it is broadcast; the replay ledger keeps it burning at most once);
 * - a burn that cannot come back (a self-transfer, or an authorization no longer valid) keeps the payment
 *   waiting while the block it was in could still return, and fails it as `evidence_vanished` once that block
 *   is final: nothing is minted from stale evidence;
 * - a mint the chain no longer holds turns its payment back into `accepted` (`mint_reorged`): the next pass
 *   mints it again, or finds it minted, since the verifier's `totalTeleported` decides and never pays twice.
 *
 * Every outcome is logged (`burn_reorged`, `mint_reorged`, …) and counted by `onReorg`.
 */
import { TransactionNotFoundError, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { ChainFinality } from "../chain/chainFinality.js";
import type { SerialSender } from "../chain/createKeySender.js";
import { readRelayFees } from "../chain/readRelayFees.js";
import type { JournalRecord } from "../journal/journalRecord.js";
import type { Logger } from "../log/createLogger.js";
import { findPermitBurn } from "../settlement/findPermitBurn.js";
import type { SettlementBook, SettlementEntry } from "../settlement/settlementBook.js";
import { FINALIZE_FAILED_REASON } from "./finalizeReasons.js";

/** What a reorg did, as counted in `/metrics` (`facilitator_reorgs_total{subject,outcome}`). */
export type ReorgOutcome =
  /** The transaction is back in the node's pool, waiting to be mined again. */
  | "pending"
  /** The permit burn executed in another transaction: the payment follows it. */
  | "moved"
  /** The permit burn was relayed again. */
  | "rebroadcast"
  /** The burn cannot come back: the payment failed as `evidence_vanished`. */
  | "vanished"
  /** The mint is gone: the payment is accepted again, to be minted (or found minted). */
  | "reopened";

/** What the watch reads, writes and reports to. */
export type ReorgWatchDependencies = {
  client: PublicClient;
  finality: Pick<ChainFinality, "finalBlock">;
  book: SettlementBook;
  /** Journals one record and folds it into the book. */
  record: (record: JournalRecord) => Promise<void>;
  /** Relays a permit burn again. */
  relayer: SerialSender;
  logger: Logger;
  /** Unix seconds. */
  now: () => number;
  onReorg?: ((subject: "burn" | "mint", outcome: ReorgOutcome) => void) | undefined;
  /**
   * Called once per process for each payment no reorg can change any more: its mint is in a final block, or the
   * watch failed it for good (`evidence_vanished`). What was kept to mint it again (its Merkle paths) may go.
   */
  onSettledForGood?: ((entry: SettlementEntry) => void) | undefined;
};

/** The watch; `watch` runs one round over the given entries. */
export type ReorgWatch = { watch: (entries: readonly SettlementEntry[]) => Promise<void> };

/** How far before the accepted burn's block a reorged permit burn is searched for in the replay ledger. */
export const REORG_SEARCH_BLOCKS = 128n;
/** Receipts read together (one JSON-RPC batch). */
const READ_CHUNK = 50;

/** Creates the watch. */
export function createReorgWatch(deps: ReorgWatchDependencies): ReorgWatch {
  const { client, book, logger } = deps;
  // `challengeNonce:txHash` of every burn and mint seen final: never read again in this process.
  const final = new Set<string>();
  const finalKey = (entry: SettlementEntry, hash: Hex) => `${entry.challenge.challengeNonce.toLowerCase()}:${hash.toLowerCase()}`;

  const receiptOf = (hash: Hex): Promise<TransactionReceipt | undefined> =>
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
  const pendingInPool = (hash: Hex): Promise<boolean> =>
    client.getTransaction({ hash }).then(
      (transaction) => transaction.blockNumber === null,
      (error: unknown) => {
        if (error instanceof TransactionNotFoundError) return false;
        throw error;
      },
    );

  const report = (subject: "burn" | "mint", outcome: ReorgOutcome, fields: Record<string, string>) => {
    deps.onReorg?.(subject, outcome);
    const event = `${subject}_reorged`;
    if (outcome === "pending") logger.info(event, { ...fields, outcome });
    else logger.warn(event, { ...fields, outcome });
  };

  // The burn is gone from the chain: find it elsewhere, relay it again, or (once it cannot return) fail.
  const burnGone = async (entry: SettlementEntry, finalBlock: bigint): Promise<void> => {
    const challengeNonce = entry.challenge.challengeNonce;
    const fields = { challenge_nonce: challengeNonce, burn_tx: entry.burnTxHash };
    if (await pendingInPool(entry.burnTxHash)) {
      if (entry.burnMissingSince === undefined) report("burn", "pending", fields);
      entry.burnMissingSince ??= deps.now();
      return;
    }
    const { helper } = entry.challenge;
    const { authorizationId } = entry;
    if (entry.path === "permit" && helper !== undefined && authorizationId !== undefined) {
      const burn = await findPermitBurn(client, { helper, authorizationId, fromBlock: clampedStart(BigInt(entry.burnBlockNumber)) });
      if (burn && burn.txHash.toLowerCase() !== entry.burnTxHash.toLowerCase()) {
        await deps.record({ type: "burn_reorged", challengeNonce, burnTxHash: burn.txHash, at: deps.now() });
        report("burn", "moved", { ...fields, new_burn_tx: burn.txHash });
        return;
      }
      if (!burn && entry.relayCalldata !== undefined && (await relayAgain(entry, helper, entry.relayCalldata as Hex))) return;
    }
    entry.burnMissingSince ??= deps.now();
    // The block it was in may still come back with it; past finality it cannot.
    if (BigInt(entry.burnBlockNumber) > finalBlock) return;
    await deps.record({ type: "failed", challengeNonce, reason: FINALIZE_FAILED_REASON.evidenceVanished, at: deps.now() });
    deps.onSettledForGood?.(entry);
    report("burn", "vanished", fields);
    logger.warn("payment_failed", {
      challenge_nonce: challengeNonce,
      reason: FINALIZE_FAILED_REASON.evidenceVanished,
      detail: "a reorg removed the burn for good",
    });
  };

  // Relays the payer's signed call again; false when it would revert (the authorization is no longer valid).
  const relayAgain = async (entry: SettlementEntry, helper: Address, data: Hex): Promise<boolean> => {
    const challengeNonce = entry.challenge.challengeNonce;
    // Read before the journal record below moves the entry to the new transaction.
    const removedBurnTx = entry.burnTxHash;
    const [gas, fees] = await Promise.all([
      client.estimateGas({ account: deps.relayer.address, to: helper, data }).catch(() => undefined),
      readRelayFees(client),
    ]);
    if (gas === undefined) return false;
    const txHash = await deps.relayer.send(
      { to: helper, data, gas: (gas * 12n) / 10n, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
      {
        beforeBroadcast: ({ hash, serialized }) =>
          deps.record({ type: "burn_reorged", challengeNonce, burnTxHash: hash, rawTransaction: serialized, at: deps.now() }),
      },
    );
    report("burn", "rebroadcast", { challenge_nonce: challengeNonce, burn_tx: removedBurnTx, new_burn_tx: txHash });
    return true;
  };

  const watchBurn = async (entry: SettlementEntry, receipt: TransactionReceipt | undefined, finalBlock: bigint): Promise<void> => {
    if (receipt?.status === "success") {
      entry.burnMissingSince = undefined;
      if (receipt.blockNumber <= finalBlock) final.add(finalKey(entry, entry.burnTxHash));
      return;
    }
    await burnGone(entry, finalBlock);
  };

  const watchMint = async (entry: SettlementEntry, mintTxHash: Hex, receipt: TransactionReceipt | undefined, finalBlock: bigint): Promise<void> => {
    if (receipt?.status === "success") {
      if (receipt.blockNumber <= finalBlock) {
        final.add(finalKey(entry, mintTxHash));
        deps.onSettledForGood?.(entry);
      }
      return;
    }
    const fields = { challenge_nonce: entry.challenge.challengeNonce, mint_tx: mintTxHash };
    if (await pendingInPool(mintTxHash)) return;
    await deps.record({ type: "mint_reorged", challengeNonce: entry.challenge.challengeNonce, mintTxHash, at: deps.now() });
    report("mint", "reopened", fields);
  };

  const watch = async (entries: readonly SettlementEntry[]): Promise<void> => {
    const open = entries.filter((entry) => {
      if (entry.state === "accepted") return !final.has(finalKey(entry, entry.burnTxHash));
      return entry.state === "finalized" && entry.mintTxHash !== undefined && !final.has(finalKey(entry, entry.mintTxHash));
    });
    if (open.length === 0) return;
    const finalBlock = await deps.finality.finalBlock();
    for (let start = 0; start < open.length; start += READ_CHUNK) {
      const chunk = open.slice(start, start + READ_CHUNK);
      const hashes = chunk.map((entry) => (entry.state === "accepted" ? entry.burnTxHash : (entry.mintTxHash as Hex)));
      const receipts = await Promise.all(hashes.map(receiptOf));
      for (const [index, entry] of chunk.entries()) {
        const hash = hashes[index] as Hex;
        // The book may have moved on meanwhile (another record applied): watch only what is still current.
        if (book.entry(entry.challenge.challengeNonce) !== entry) continue;
        if (entry.state === "accepted") await watchBurn(entry, receipts[index], finalBlock);
        else await watchMint(entry, hash, receipts[index], finalBlock);
      }
    }
  };

  return { watch };
}

function clampedStart(block: bigint): bigint {
  return block > REORG_SEARCH_BLOCKS ? block - REORG_SEARCH_BLOCKS : 0n;
}
