/**
 * A permit payment's burn on its way to the chain: relayed through PermitBurner with the relayer key, then
 * followed to its receipt, also across re-sends and restarts. What it may say:
 *
 * - the node refused the broadcast (a JSON-RPC error), or nothing was broadcast: the intent is released
 *   (`intent_released`) and the answer is `relay_failed`, so the payer's own payload can settle again;
 * - the storage failed before the relay was journaled (the nonce lock or the append): nothing was sent and
 *   nothing is released, the `StorageUnavailableError` goes up (`storage_unavailable`), and a re-send relays
 *   afresh; failing after it was journaled, it failed after the broadcast (the nonce counter's update), so
 *   the answer is `pending_burn`;
 * - the broadcast's answer was lost, or the burn is unmined at the polling bound: `pending_burn`. The signed
 *   transaction was journaled (`relay`) before it went out, so a re-send follows that very transaction: its
 *   receipt, else the same bytes re-broadcast; it is proven dropped (released, then relayed afresh) only
 *   when another transaction of the relayer was mined on its nonce while none of its hashes has a receipt
 *   and the replay ledger shows no burn of its authorization;
 * - the relayer's monitor may replace a stuck relay with higher fees (a new hash on the same nonce): the
 *   replacement is journaled (`relay`, the book keeps the latest and the hashes it replaced) before it is
 *   broadcast, and every receipt wait follows all hashes of the nonce;
 * - mined: its own burn is accepted; a revert is accepted when someone else executed the authorization
 *   first (the replay ledger tells), else released with `burn_reverted`.
 */
import { BURN_REVERTED, PENDING_BURN, RELAY_FAILED, type SettleResponse } from "@svc/scheme";
import { parseTransaction, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { EstimatedCall, SerialSender } from "../chain/createKeySender.js";
import type { BeforeBroadcast } from "../chain/createTransactionMonitor.js";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { JournalRecord, RelayRecord } from "../journal/journalRecord.js";
import type { JournaledRelay } from "./settlementBook.js";
import type { Logger } from "../log/createLogger.js";
import { findPermitBurn } from "./findPermitBurn.js";
import { relayMayHaveReachedChain } from "../chain/relayReachedChain.js";
import { StorageUnavailableError } from "../storage/errors.js";

/**
 * One permit payment and the burn authorization its relay executes; `calldata` is the PermitBurner call
 * (journaled with the accepted payment, so a burn a reorg removes can be relayed again while it is valid).
 */
export type PermitRelay = {
  challenge: ChallengeRecord;
  digest: Hex;
  payer: Address;
  helper: Address;
  authorizationId: Hex;
  fromBlock: bigint;
  calldata: Hex | undefined;
};

/** A burn that is on-chain, ready to be accepted. */
export type ExecutedBurn = { burnTxHash: Hex; burnBlockNumber: bigint };

/** What relaying reads, writes and answers with. */
export type PermitRelaysContext = {
  client: PublicClient;
  relayer: SerialSender;
  /** Journals (fsync) and applies one record. */
  record: (record: JournalRecord) => Promise<void>;
  logger: Logger;
  /** Unix seconds. */
  now: () => number;
  /** Accepts the payment with its executed burn. */
  accept: (relay: PermitRelay, burn: ExecutedBurn) => Promise<SettleResponse>;
  /**
   * The burn once it is `network.confirmations` deep (polling up to `timeoutMs`), where it is then;
   * `undefined` when it is not deep enough in time or a reorg moved it meanwhile (the answer is `pending_burn`).
   */
  confirm: (burn: ExecutedBurn, timeoutMs: number) => Promise<ExecutedBurn | undefined>;
  /** A failed settle answer. */
  failure: (reason: typeof BURN_REVERTED | typeof PENDING_BURN | typeof RELAY_FAILED, transaction?: Hex) => SettleResponse;
  /** How long to wait for a receipt before `pending_burn`. */
  receiptTimeoutMs: number;
  receiptPollMs?: number | undefined;
};

/** Relays and follows permit burns. */
export type PermitRelays = {
  /** Signs, journals and broadcasts `call`, then waits for its receipt (bounded). */
  relay: (relay: PermitRelay, call: EstimatedCall) => Promise<SettleResponse>;
  /** Follows a relay journaled earlier; `released` when it was proven dropped and may be relayed afresh. */
  follow: (relay: PermitRelay, journaled: JournaledRelay) => Promise<SettleResponse | "released">;
  /** The hook that journals a relay (first or replacement) of `challengeNonce` before it is broadcast. */
  journalRelay: (challengeNonce: Hex) => BeforeBroadcast;
};

/** Builds the permit relays over `context`. */
export function createPermitRelays(context: PermitRelaysContext): PermitRelays {
  const { client, logger } = context;

  const release = async (challengeNonce: Hex, reason: string): Promise<void> => {
    await context.record({ type: "intent_released", challengeNonce, reason, at: context.now() });
    logger.info("permit_intent_released", { challenge_nonce: challengeNonce, reason });
  };

  const receiptOf = (hash: Hex) =>
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });

  // Accepted only once the burn is deep enough; until then the burn is out and the answer is "pending".
  const acceptConfirmed = async (relay: PermitRelay, burn: ExecutedBurn, timeoutMs: number): Promise<SettleResponse> => {
    // The burn is out: an RPC failing meanwhile still means "pending", never "failed".
    const confirmed = await context.confirm(burn, timeoutMs).catch(() => undefined);
    if (confirmed) return context.accept(relay, confirmed);
    logger.info("permit_burn_unconfirmed", { challenge_nonce: relay.challenge.challengeNonce, burn_tx: burn.burnTxHash });
    return context.failure(PENDING_BURN, burn.burnTxHash);
  };

  const settleMined = async (relay: PermitRelay, receipt: TransactionReceipt, timeoutMs = context.receiptTimeoutMs): Promise<SettleResponse> => {
    if (receipt.status === "success") {
      return acceptConfirmed(relay, { burnTxHash: receipt.transactionHash, burnBlockNumber: receipt.blockNumber }, timeoutMs);
    }
    const burn = await findPermitBurn(client, { helper: relay.helper, authorizationId: relay.authorizationId, fromBlock: relay.fromBlock });
    if (burn) return acceptConfirmed(relay, { burnTxHash: burn.txHash, burnBlockNumber: burn.blockNumber }, timeoutMs);
    await release(relay.challenge.challengeNonce, BURN_REVERTED);
    return context.failure(BURN_REVERTED, receipt.transactionHash);
  };

  const awaitReceipt = async (relay: PermitRelay, txHash: Hex): Promise<SettleResponse> => {
    // One polling bound for the receipt and the confirmations together.
    const giveUpAt = Date.now() + context.receiptTimeoutMs;
    // An RPC that fails while the burn is out is no reason to say anything but "pending": the burn may land.
    // Any hash of the nonce: the monitor may have replaced the relay with a fee bump meanwhile.
    const receipt = await context.relayer.monitor
      .waitReceipt(txHash, { timeoutMs: context.receiptTimeoutMs, intervalMs: context.receiptPollMs })
      .catch(() => undefined);
    if (!receipt) {
      logger.info("permit_burn_pending", { challenge_nonce: relay.challenge.challengeNonce, burn_tx: txHash });
      return context.failure(PENDING_BURN, txHash);
    }
    return settleMined(relay, receipt, Math.max(0, giveUpAt - Date.now()));
  };

  const journalRelay =
    (challengeNonce: Hex): BeforeBroadcast =>
    ({ hash, serialized }) =>
      context.record({ type: "relay", challengeNonce, txHash: hash, rawTransaction: serialized, at: context.now() });

  // The receipt of whichever hash of the relay's nonce was mined: the journaled ones and those the monitor knows.
  const anyReceipt = async (journaled: JournaledRelay): Promise<TransactionReceipt | undefined> => {
    const hashes = new Set<Hex>([
      journaled.txHash as Hex,
      ...(journaled.earlierTxHashes as Hex[]),
      ...context.relayer.monitor.hashesOf(journaled.txHash as Hex),
    ]);
    const receipts = await Promise.all([...hashes].map(receiptOf));
    return receipts.find((receipt) => receipt !== undefined);
  };

  const follow = async (relay: PermitRelay, journaled: JournaledRelay): Promise<SettleResponse | "released"> => {
    const receipt = await anyReceipt(journaled);
    if (receipt) return settleMined(relay, receipt);
    const { nonce } = parseTransaction(journaled.rawTransaction as Hex);
    const mined = await client.getTransactionCount({ address: context.relayer.address, blockTag: "latest" });
    if (nonce !== undefined && mined > nonce) {
      // Re-read after the nonce: a receipt that appeared in between means it landed after all.
      const late = await anyReceipt(journaled);
      if (late) return settleMined(relay, late);
      // No hash we know of was mined, but a hash we never journaled might have been (a replacement whose
      // record was lost with its process): the replay ledger is the one word on whether the burn executed.
      const burn = await findPermitBurn(client, { helper: relay.helper, authorizationId: relay.authorizationId, fromBlock: relay.fromBlock });
      if (burn) return acceptConfirmed(relay, { burnTxHash: burn.txHash, burnBlockNumber: burn.blockNumber }, context.receiptTimeoutMs);
      await release(relay.challenge.challengeNonce, "relay_dropped");
      return "released";
    }
    // Already known to the node, or back into its pool after a restart: either way the same transaction.
    await client.sendRawTransaction({ serializedTransaction: journaled.rawTransaction as Hex }).catch(() => undefined);
    // The follower holds the intent's settle claim: its monitor re-sends or bumps the relay from here on.
    context.relayer.monitor.adopt(journaled.rawTransaction as Hex, journalRelay(relay.challenge.challengeNonce));
    return awaitReceipt(relay, journaled.txHash as Hex);
  };

  const relay = async (payment: PermitRelay, call: EstimatedCall): Promise<SettleResponse> => {
    const challengeNonce = payment.challenge.challengeNonce;
    let signed: RelayRecord | undefined;
    let journaled = false;
    let txHash: Hex;
    try {
      const journal = journalRelay(challengeNonce);
      txHash = await context.relayer.send(call, {
        // Also runs before each replacement the monitor broadcasts: the journal learns every hash first.
        beforeBroadcast: async (transaction) => {
          signed ??= { type: "relay", challengeNonce, txHash: transaction.hash, rawTransaction: transaction.serialized, at: context.now() };
          await journal(transaction);
          journaled = true;
        },
      });
    } catch (error) {
      if (error instanceof StorageUnavailableError) {
        if (!journaled || signed === undefined) throw error;
        logger.warn("permit_relay_unconfirmed", { challenge_nonce: challengeNonce, burn_tx: signed.txHash, error: errorName(error) });
        return context.failure(PENDING_BURN, signed.txHash);
      }
      if (signed === undefined || !relayMayHaveReachedChain(error)) {
        logger.warn("permit_relay_failed", { challenge_nonce: challengeNonce, error: errorName(error) });
        await release(challengeNonce, RELAY_FAILED);
        return context.failure(RELAY_FAILED);
      }
      logger.warn("permit_relay_unconfirmed", { challenge_nonce: challengeNonce, burn_tx: signed.txHash, error: errorName(error) });
      return context.failure(PENDING_BURN, signed.txHash);
    }
    logger.info("permit_burn_broadcast", { challenge_nonce: challengeNonce, burn_tx: txHash });
    return awaitReceipt(payment, txHash);
  };

  return { relay, follow, journalRelay };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "unknown";
}
