/**
 * `/verify` and `/settle` for both payment paths, exactly per the spec's transition table:
 * - verify checks without mutating anything;
 * - settle claims the challenge before its first await, re-checks everything, burns (permit path: through
 *   PermitBurner with the relayer key, after an fsynced intent) or confirms the payer's burn (self-transfer),
 *   journals the accepted entry with fsync, and only then answers `success: true, extra.phase: "accepted"`;
 * - an identical re-send gets the same answer (never a second burn: the on-chain replay ledger reconciles
 *   permit re-sends); any other payload for an accepted challenge is refused;
 * - a burn included after the offer expired is refused on every path, journaled and listed for the operator.
 */
import {
  BURN_AFTER_EXPIRY,
  BURN_REVERTED,
  BURN_TX_REUSED,
  CHAIN_UNAVAILABLE,
  CHALLENGE_EXPIRED,
  INTENT_NOT_RECORDED,
  PAYLOAD_CONFLICT,
  payloadDigest,
  PENDING_BURN,
  PROFILE_UNSUPPORTED,
  RELAY_FAILED,
  REQUIREMENTS_MISMATCH,
  UNKNOWN_CHALLENGE,
  zerc20TokenAbi,
  type AcceptedPayload,
  type ClassifiedFacilitatorBody,
  type Network,
  type PermitPayload,
  type ReasonCode,
  type SelfTransferPayload,
  type SettleResponse,
  type VerifyResponse,
} from "@svc/scheme";
import { BaseError as ViemBaseError, parseTransaction, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { RelayerQueue } from "../chain/relayerQueue.js";
import type { Profile } from "../config/facilitatorConfigSchema.js";
import type { HistoryPayment, HistoryRecorder } from "../history/historyRecorder.js";
import type { AcceptedRecord, JournalRecord, RelayRecord } from "../journal/journalRecord.js";
import type { SettlementJournal } from "../journal/openSettlementJournal.js";
import type { Logger } from "../log/createLogger.js";
import { fromJournaledChallenge, toJournaledChallenge, type ChallengeView } from "./challengeView.js";
import { checkPermitPayment } from "./checkPermitPayment.js";
import { checkSelfTransferBurn, type SelfTransferBurnEvidence } from "./checkSelfTransferBurn.js";
import { findPermitBurn } from "./findPermitBurn.js";
import { requirementsMismatch } from "./matchData.js";
import { offerRequirements } from "./offerRequirements.js";
import { relayMayHaveReachedChain } from "./relayReachedChain.js";
import { pollReceipt } from "./pollReceipt.js";
import type { SettlementBook, SettlementEntry } from "./settlementBook.js";

/** Where issued challenges are looked up (the in-memory challenge store). */
export type ChallengeLookup = {
  get: (challengeNonce: Hex) => { record: ChallengeRecord; status: "open" | "expired" } | undefined;
  markSettled: (challengeNonce: Hex) => void;
};

/** Everything settlement needs; the HTTP layer is not among it. */
export type SettlementServiceDependencies = {
  profile: Profile | undefined;
  network: Network;
  /** The configuration an accepted entry is journaled under (finalization only runs under the same). */
  deployment: { token: Address; verifier: Address; treasury: Address };
  client: PublicClient;
  relayer: RelayerQueue;
  challenges: ChallengeLookup;
  book: SettlementBook;
  journal: SettlementJournal;
  history: HistoryRecorder;
  logger: Logger;
  /** Unix seconds. */
  now: () => number;
  /** How long `/settle` waits for a relayed permit burn before answering `pending_burn`. */
  permitReceiptTimeoutMs: number;
  /** Receipt polling interval (default 100 ms). */
  receiptPollMs?: number;
};

/** The settlement core behind `/verify` and `/settle`. */
export type SettlementService = {
  verify: (body: ClassifiedFacilitatorBody) => Promise<VerifyResponse>;
  settle: (body: ClassifiedFacilitatorBody) => Promise<SettleResponse>;
  /** Resolves permit intents left by a crash whose burn executed on-chain; returns how many were accepted. */
  reconcileIntents: () => Promise<number>;
  /** Settles still running, for a graceful shutdown. */
  inflight: () => Promise<unknown>[];
};

type Resolved = { view: ChallengeView; expired: boolean };
/** One permit payment on its way to the chain: what a receipt is settled against. */
type PermitRelay = { view: ChallengeView; digest: Hex; payer: Address; helper: Address; authorizationId: Hex; fromBlock: bigint };
type PaymentPath = AcceptedPayload["kind"];

/** Wires the settlement core. */
export function createSettlementService(deps: SettlementServiceDependencies): SettlementService {
  const { client, book, journal, logger } = deps;
  let tokenName: Promise<string> | undefined;
  const readTokenName = (): Promise<string> => {
    tokenName ??= client.readContract({ address: deps.deployment.token, abi: zerc20TokenAbi, functionName: "name" }).catch((error: unknown) => {
      tokenName = undefined;
      throw error;
    });
    return tokenName;
  };

  const invalid = (invalidReason: ReasonCode): VerifyResponse => ({ isValid: false, invalidReason });
  const failure = (errorReason: ReasonCode, transaction: Hex | "" = ""): SettleResponse => ({
    success: false,
    errorReason,
    transaction,
    network: deps.network,
  });
  const acceptedResponse = (entry: SettlementEntry): SettleResponse => ({
    success: true,
    transaction: entry.burnTxHash,
    network: entry.challenge.network,
    ...(entry.payer === undefined ? {} : { payer: entry.payer }),
    extra: { phase: "accepted" },
  });

  const resolve = (challengeNonce: Hex): Resolved | undefined => {
    const live = deps.challenges.get(challengeNonce);
    if (live) return { view: live.record, expired: live.status === "expired" || deps.now() > live.record.expiresAt };
    const intent = book.intent(challengeNonce);
    if (!intent) return undefined;
    const view = fromJournaledChallenge(intent.challenge);
    return { view, expired: deps.now() > view.expiresAt };
  };

  // Untrusted requirements (and the echoed offer) must agree with what was issued, field by field.
  const mismatch = (body: Exclude<ClassifiedFacilitatorBody, { kind: "rejected" }>, view: ChallengeView): string | undefined => {
    if (body.kind === "legacy") return undefined;
    return requirementsMismatch(view, body.request.paymentRequirements) ?? requirementsMismatch(view, body.request.paymentPayload.accepted);
  };

  const journalAndApply = async (record: JournalRecord): Promise<void> => {
    await journal.append(record);
    book.apply(record);
  };

  const historyPayment = (view: ChallengeView, path: PaymentPath, payer: Address | undefined): HistoryPayment => ({
    challengeNonce: view.challengeNonce,
    path,
    network: view.network,
    asset: view.asset,
    payTo: view.payTo,
    amount: view.amount,
    payer,
  });

  const accept = async (params: {
    view: ChallengeView;
    path: PaymentPath;
    digest: Hex;
    payer: Address | undefined;
    burnTxHash: Hex;
    burnBlockNumber: bigint;
  }): Promise<SettleResponse> => {
    const record: AcceptedRecord = {
      type: "accepted",
      challenge: toJournaledChallenge(params.view),
      path: params.path,
      payloadDigest: params.digest,
      ...(params.payer === undefined ? {} : { payer: params.payer }),
      burnTxHash: params.burnTxHash,
      burnBlockNumber: params.burnBlockNumber.toString(),
      token: deps.deployment.token,
      verifier: deps.deployment.verifier,
      treasury: deps.deployment.treasury,
      at: deps.now(),
    };
    await journalAndApply(record);
    deps.challenges.markSettled(params.view.challengeNonce);
    logger.info("payment_accepted", {
      challenge_nonce: params.view.challengeNonce,
      path: params.path,
      burn_tx: params.burnTxHash,
      amount: params.view.amount,
    });
    deps.history
      .recordAccepted({ ...historyPayment(params.view, params.path, params.payer), burnTxHash: params.burnTxHash })
      .catch((error: unknown) => logger.warn("history_accepted_failed", { challenge_nonce: params.view.challengeNonce, error: errorName(error) }));
    return acceptedResponse({ ...record, state: "accepted" });
  };

  const recordLateBurn = async (view: ChallengeView, path: PaymentPath, burnTxHash: Hex, evidence: SelfTransferBurnEvidence) => {
    if (book.burnTxOwner(burnTxHash) !== undefined) return;
    await journalAndApply({
      type: "late_burn",
      challenge: toJournaledChallenge(view),
      path,
      burnTxHash,
      value: evidence.value.toString(),
      blockTimestamp: evidence.blockTimestamp,
      at: deps.now(),
    });
    logger.warn("late_burn_refused", {
      challenge_nonce: view.challengeNonce,
      burn_tx: burnTxHash,
      expires_at: view.expiresAt,
      block_timestamp: evidence.blockTimestamp,
    });
  };

  const recordIntent = async (view: ChallengeView, path: PaymentPath, payer: Address | undefined): Promise<boolean> => {
    try {
      await deps.history.recordIntent(historyPayment(view, path, payer));
      return true;
    } catch (error) {
      logger.warn("history_intent_failed", { challenge_nonce: view.challengeNonce, error: errorName(error) });
      return false;
    }
  };

  const settleSelfTransfer = async (resolved: Resolved, payload: SelfTransferPayload, digest: Hex) => {
    const { view } = resolved;
    const owner = book.burnTxOwner(payload.burnTxHash);
    if (owner !== undefined && owner !== view.challengeNonce.toLowerCase()) return failure(BURN_TX_REUSED);
    const check = await checkSelfTransferBurn(client, { token: view.asset, payTo: view.payTo, amount: view.amount, expiresAt: view.expiresAt, burnTxHash: payload.burnTxHash });
    if (!check.ok) {
      if (check.late) await recordLateBurn(view, "self-transfer", payload.burnTxHash, check.late);
      return failure(check.reason);
    }
    if (resolved.expired) return failure(CHALLENGE_EXPIRED);
    if (!(await recordIntent(view, "self-transfer", check.evidence.payer))) return failure(INTENT_NOT_RECORDED);
    return accept({ view, path: "self-transfer", digest, payer: check.evidence.payer, burnTxHash: payload.burnTxHash, burnBlockNumber: check.evidence.blockNumber });
  };

  const releaseIntent = async (challengeNonce: Hex, reason: string): Promise<void> => {
    await journalAndApply({ type: "intent_released", challengeNonce, reason, at: deps.now() });
    logger.info("permit_intent_released", { challenge_nonce: challengeNonce, reason });
  };

  const receiptOf = (hash: Hex) =>
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });

  // What a mined relay means: its own burn, a burn someone else executed first, or nothing (released).
  const settleMinedRelay = async (relay: PermitRelay, receipt: TransactionReceipt): Promise<SettleResponse> => {
    const { view, digest, payer } = relay;
    if (receipt.status === "success") {
      return accept({ view, path: "permit", digest, payer, burnTxHash: receipt.transactionHash, burnBlockNumber: receipt.blockNumber });
    }
    const burn = await findPermitBurn(client, { helper: relay.helper, authorizationId: relay.authorizationId, fromBlock: relay.fromBlock });
    if (burn) return accept({ view, path: "permit", digest, payer, burnTxHash: burn.txHash, burnBlockNumber: burn.blockNumber });
    await releaseIntent(view.challengeNonce, BURN_REVERTED);
    return failure(BURN_REVERTED, receipt.transactionHash);
  };

  const awaitRelay = async (relay: PermitRelay, txHash: Hex): Promise<SettleResponse> => {
    // An RPC that fails while the burn is out is no reason to say anything but "pending": the burn may land.
    const receipt = await pollReceipt(client, txHash, { timeoutMs: deps.permitReceiptTimeoutMs, intervalMs: deps.receiptPollMs }).catch(() => undefined);
    if (!receipt) {
      logger.info("permit_burn_pending", { challenge_nonce: relay.view.challengeNonce, burn_tx: txHash });
      return failure(PENDING_BURN, txHash);
    }
    return settleMinedRelay(relay, receipt);
  };

  /**
   * Follows a relay journaled earlier (a re-send, maybe after a restart): mined, still on its way (re-broadcast
   * unchanged, never a second transaction), or provably dropped: its nonce was mined by another transaction
   * while it has no receipt, so it can never land and the intent is released for a fresh relay.
   */
  const followRelay = async (relay: PermitRelay, journaled: RelayRecord): Promise<SettleResponse | "released"> => {
    const receipt = await receiptOf(journaled.txHash);
    if (receipt) return settleMinedRelay(relay, receipt);
    const { nonce } = parseTransaction(journaled.rawTransaction as Hex);
    const mined = await client.getTransactionCount({ address: deps.relayer.address, blockTag: "latest" });
    if (nonce !== undefined && mined > nonce) {
      const late = await receiptOf(journaled.txHash);
      if (late) return settleMinedRelay(relay, late);
      await releaseIntent(relay.view.challengeNonce, "relay_dropped");
      return "released";
    }
    // Already known to the node, or back into its pool after a restart: either way the same transaction.
    await client.sendRawTransaction({ serializedTransaction: journaled.rawTransaction as Hex }).catch(() => undefined);
    return awaitRelay(relay, journaled.txHash);
  };

  const settlePermit = async (resolved: Resolved, payload: PermitPayload, digest: Hex) => {
    const { view } = resolved;
    const intent = book.intent(view.challengeNonce);
    if (intent && intent.payloadDigest !== digest) return failure(PAYLOAD_CONFLICT);
    // A relay of this very payload is already out: its fate comes first. The payload's own checks would only
    // see its effects (a moved nonce, a spent balance) and could never release it.
    const journaled = book.relay(view.challengeNonce);
    if (intent?.authorizationId && journaled && view.helper) {
      const relay = { view, digest, payer: payload.payer, helper: view.helper, authorizationId: intent.authorizationId, fromBlock: BigInt(intent.fromBlock) };
      const followed = await followRelay(relay, journaled);
      if (followed !== "released") return followed;
    }
    const now = deps.now();
    const check = await checkPermitPayment({
      client,
      offer: offerRequirements(view, now),
      payload,
      tokenName: await readTokenName(),
      now,
      relayer: deps.relayer.address,
    });
    if (!check.ok) return failure(check.reason);
    const { permit } = check;
    const relay: PermitRelay = {
      view,
      digest,
      payer: permit.payer,
      helper: permit.helper,
      authorizationId: permit.authorizationId,
      fromBlock: intent ? BigInt(intent.fromBlock) : 0n,
    };

    if (permit.alreadyExecuted) {
      const burn = await findPermitBurn(client, { helper: permit.helper, authorizationId: permit.authorizationId, fromBlock: relay.fromBlock });
      if (!burn) return failure(PENDING_BURN);
      return accept({ view, path: "permit", digest, payer: permit.payer, burnTxHash: burn.txHash, burnBlockNumber: burn.blockNumber });
    }
    if (resolved.expired) return failure(CHALLENGE_EXPIRED);
    // No estimate means the relay would revert: nothing is sent and nothing is held, so the payer's own
    // payload can still settle.
    if (!permit.call) return failure(RELAY_FAILED);

    if (!book.intent(view.challengeNonce)) {
      const [recorded, fromBlock] = await Promise.all([recordIntent(view, "permit", permit.payer), client.getBlockNumber()]);
      if (!recorded) return failure(INTENT_NOT_RECORDED);
      relay.fromBlock = fromBlock;
      await journalAndApply({
        type: "intent",
        challenge: toJournaledChallenge(view),
        path: "permit",
        payloadDigest: digest,
        authorizationId: permit.authorizationId,
        fromBlock: fromBlock.toString(),
        at: deps.now(),
      });
    }

    let signed: RelayRecord | undefined;
    let txHash: Hex;
    try {
      txHash = await deps.relayer.send(permit.call, {
        beforeBroadcast: async ({ hash, serialized }) => {
          signed = { type: "relay", challengeNonce: view.challengeNonce, txHash: hash, rawTransaction: serialized, at: deps.now() };
          await journalAndApply(signed);
        },
      });
    } catch (error) {
      if (signed === undefined || !relayMayHaveReachedChain(error)) {
        logger.warn("permit_relay_failed", { challenge_nonce: view.challengeNonce, error: errorName(error) });
        await releaseIntent(view.challengeNonce, RELAY_FAILED);
        return failure(RELAY_FAILED);
      }
      logger.warn("permit_relay_unconfirmed", { challenge_nonce: view.challengeNonce, burn_tx: signed.txHash, error: errorName(error) });
      return failure(PENDING_BURN, signed.txHash);
    }
    logger.info("permit_burn_broadcast", { challenge_nonce: view.challengeNonce, burn_tx: txHash });
    return awaitRelay(relay, txHash);
  };

  const settleClaimed = async (body: Exclude<ClassifiedFacilitatorBody, { kind: "rejected" }>, digest: Hex): Promise<SettleResponse> => {
    const { payment } = body;
    const challengeNonce = payment.payload.challengeNonce;
    const entry = book.entry(challengeNonce);
    if (entry) {
      if (mismatch(body, fromJournaledChallenge(entry.challenge))) return failure(REQUIREMENTS_MISMATCH);
      return entry.payloadDigest === digest ? acceptedResponse(entry) : failure(PAYLOAD_CONFLICT);
    }
    const resolved = resolve(challengeNonce);
    if (!resolved) return failure(UNKNOWN_CHALLENGE);
    if (mismatch(body, resolved.view)) return failure(REQUIREMENTS_MISMATCH);
    return payment.kind === "self-transfer"
      ? settleSelfTransfer(resolved, payment.payload, digest)
      : settlePermit(resolved, payment.payload, digest);
  };

  const verify = async (body: ClassifiedFacilitatorBody): Promise<VerifyResponse> => {
    try {
      return await verifyChecked(body);
    } catch (error) {
      if (!isChainError(error)) throw error;
      logger.warn("chain_unavailable", { during: "verify", error: errorName(error) });
      return invalid(CHAIN_UNAVAILABLE);
    }
  };

  const verifyChecked = async (body: ClassifiedFacilitatorBody): Promise<VerifyResponse> => {
    if (deps.profile !== "local") return invalid(PROFILE_UNSUPPORTED);
    if (body.kind === "rejected") return invalid(body.reason);
    const { payment } = body;
    const challengeNonce = payment.payload.challengeNonce;
    const digest = payloadDigest(payment.payload);
    const entry = book.entry(challengeNonce);
    if (entry) {
      if (mismatch(body, fromJournaledChallenge(entry.challenge))) return invalid(REQUIREMENTS_MISMATCH);
      if (entry.payloadDigest !== digest) return invalid(PAYLOAD_CONFLICT);
      return { isValid: true, ...(entry.payer === undefined ? {} : { payer: entry.payer }) };
    }
    const resolved = resolve(challengeNonce);
    if (!resolved) return invalid(UNKNOWN_CHALLENGE);
    if (mismatch(body, resolved.view)) return invalid(REQUIREMENTS_MISMATCH);
    const { view } = resolved;
    if (payment.kind === "self-transfer") {
      const owner = book.burnTxOwner(payment.payload.burnTxHash);
      if (owner !== undefined && owner !== view.challengeNonce.toLowerCase()) return invalid(BURN_TX_REUSED);
      const check = await checkSelfTransferBurn(client, { token: view.asset, payTo: view.payTo, amount: view.amount, expiresAt: view.expiresAt, burnTxHash: payment.payload.burnTxHash });
      if (!check.ok) return invalid(check.reason);
      if (resolved.expired) return invalid(CHALLENGE_EXPIRED);
      return { isValid: true, payer: check.evidence.payer };
    }
    const intent = book.intent(challengeNonce);
    if (intent && intent.payloadDigest !== digest) return invalid(PAYLOAD_CONFLICT);
    const now = deps.now();
    const check = await checkPermitPayment({ client, offer: offerRequirements(view, now), payload: payment.payload, tokenName: await readTokenName(), now });
    if (!check.ok) return invalid(check.reason);
    if (!check.permit.alreadyExecuted && resolved.expired) return invalid(CHALLENGE_EXPIRED);
    return { isValid: true, payer: check.permit.payer };
  };

  const settle = (body: ClassifiedFacilitatorBody): Promise<SettleResponse> => {
    if (deps.profile !== "local") return Promise.resolve(failure(PROFILE_UNSUPPORTED));
    if (body.kind === "rejected") return Promise.resolve(failure(body.reason));
    const challengeNonce = body.payment.payload.challengeNonce;
    const digest = payloadDigest(body.payment.payload);
    const running = book.inflightSettle(challengeNonce);
    if (running) {
      // A concurrent identical settle shares the one running; anything else for this challenge is refused.
      return running.digest === digest ? (running.result as Promise<SettleResponse>) : Promise.resolve(failure(PAYLOAD_CONFLICT));
    }
    const result = Promise.resolve()
      .then(() => settleClaimed(body, digest))
      .catch((error: unknown) => {
        // Nothing was consumed: every write before an irreversible step is journaled, and a settle that
        // stopped on the RPC leaves the claim to be released below, so the payer re-sends the same payload.
        if (!isChainError(error)) throw error;
        logger.warn("chain_unavailable", { during: "settle", challenge_nonce: challengeNonce, error: errorName(error) });
        return failure(CHAIN_UNAVAILABLE);
      })
      .then((response) => {
        if (!response.success) logger.info("settle_refused", { challenge_nonce: challengeNonce, reason: response.errorReason });
        return response;
      });
    book.claim(challengeNonce, digest, result);
    return result.finally(() => book.release(challengeNonce));
  };

  const reconcileIntents = async (): Promise<number> => {
    let accepted = 0;
    for (const intent of book.openIntents()) {
      const view = fromJournaledChallenge(intent.challenge);
      if (!intent.authorizationId || !view.helper || book.inflightSettle(view.challengeNonce)) continue;
      const burn = await findPermitBurn(client, { helper: view.helper, authorizationId: intent.authorizationId, fromBlock: BigInt(intent.fromBlock) });
      if (!burn) {
        // A relay signed before the crash goes out again unchanged, ahead of anything new on its nonce.
        const relay = book.relay(view.challengeNonce);
        if (relay) await client.sendRawTransaction({ serializedTransaction: relay.rawTransaction as Hex }).catch(() => undefined);
        continue;
      }
      const receipt = await client.getTransactionReceipt({ hash: burn.txHash });
      const payer = receipt.from === deps.relayer.address ? undefined : receipt.from;
      await accept({
        view,
        path: "permit",
        digest: intent.payloadDigest,
        payer,
        burnTxHash: burn.txHash,
        burnBlockNumber: burn.blockNumber,
      });
      accepted++;
    }
    return accepted;
  };

  return { verify, settle, reconcileIntents, inflight: () => book.inflightResults() };
}

// Any viem error out of a check is the chain or the RPC failing (a refused check is data, never thrown).
function isChainError(error: unknown): boolean {
  return error instanceof ViemBaseError;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "unknown";
}
