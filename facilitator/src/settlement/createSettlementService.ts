/**
 * `/verify` and `/settle` for both payment paths, exactly per the spec's transition table:
 * - verify runs the one check sequence (`checkPayment`) and mutates nothing;
 * - settle claims the challenge before its first await (`SettlementCoordinator`), runs the same checks, burns
 *   (permit path: through PermitBurner with the relayer key, after an fsynced intent; `createPermitRelays`) or
 *   confirms the payer's burn (self-transfer), journals the accepted entry with fsync, and only then answers
 *   `success: true, extra.phase: "accepted"`;
 * - an identical re-send gets the same answer (never a second burn: the on-chain replay ledger reconciles
 *   permit re-sends); any other payment for an accepted challenge is refused;
 * - a burn included after the offer expired is refused on every path, journaled and listed for the operator;
 * - an RPC failure during the checks answers `chain_unavailable` and consumes nothing.
 */
import {
  BURN_RECEIPT_MISSING,
  CHAIN_UNAVAILABLE,
  PAYLOAD_CONFLICT,
  payloadDigest,
  PENDING_BURN,
  PROFILE_UNSUPPORTED,
  RELAY_FAILED,
  toNetwork,
  zerc20TokenAbi,
  type AcceptedPayload,
  type ClassifiedFacilitatorBody,
  type Network,
  type PermitPayload,
  type ReasonCode,
  type SettleResponse,
  type VerifyResponse,
} from "@svc/scheme";
import {
  BaseError as ViemBaseError,
  HttpRequestError,
  parseTransaction,
  RpcRequestError,
  TimeoutError,
  TransactionReceiptNotFoundError,
  WebSocketRequestError,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import type { ChainFinality } from "../chain/chainFinality.js";
import type { SerialSender } from "../chain/createKeySender.js";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { Capabilities } from "../config/capabilities.js";
import type { HistoryPayment, HistoryRecorder } from "../history/record/historyRecorder.js";
import { requireIntent } from "../history/record/requireIntent.js";
import { toJournaledChallenge } from "../journal/journaledChallenge.js";
import type { AcceptedRecord, JournalRecord } from "../journal/journalRecord.js";
import type { Logger } from "../log/createLogger.js";
import type { CheckedPermit } from "./checkPermitPayment.js";
import {
  checkEvidence,
  checkPayment,
  matchPayment,
  type CheckPaymentContext,
  type IssuedChallenges,
  type OpenMatch,
  type PaymentBody,
} from "./checkPayment.js";
import type { LateBurnEvidence } from "./checkSelfTransferBurn.js";
import { createPermitRelays, type ExecutedBurn, type PermitRelay } from "./createPermitRelays.js";
import { findPermitBurn } from "./findPermitBurn.js";
import { BURN_VANISHED_REASON, type SettlementBook, type SettlementEntry } from "./settlementBook.js";
import { SettlementCoordinator } from "./settlementCoordinator.js";

/** The issued challenges as settlement uses them: looked up, and marked paid once accepted (the challenge store). */
export type PayableChallenges = IssuedChallenges & { markSettled: (challengeNonce: Hex) => void };

/** Everything settlement needs; the HTTP layer is not among it. */
export type SettlementServiceDependencies = {
  /** What the profile allows: off `local`, verify and settle answer `profile_unsupported`. */
  capabilities: Pick<Capabilities, "acceptsPayments">;
  network: Network;
  /** The configuration an accepted entry is journaled under (finalization only runs under the same). */
  deployment: { token: Address; verifier: Address; treasury: Address };
  client: PublicClient;
  /** How deep a burn must be before its payment is accepted. */
  finality: Pick<ChainFinality, "confirmations" | "confirmed">;
  relayer: SerialSender;
  challenges: PayableChallenges;
  /** The state folded from the journal. */
  book: SettlementBook;
  /** Journals one record (fsync) and folds it into `book`: the daemon's one append-and-apply. */
  record: (record: JournalRecord) => Promise<void>;
  history: HistoryRecorder;
  logger: Logger;
  /** Unix seconds. */
  now: () => number;
  /** How long `/settle` waits for a burn's receipt and confirmations before answering `pending_burn`. */
  permitReceiptTimeoutMs: number;
  /** Receipt polling interval (default 100 ms). */
  receiptPollMs?: number;
};

/** `/verify` and `/settle` as the daemon serves them, with the start-up sweep of what a stop left open. */
export type SettlementService = {
  verify: (body: ClassifiedFacilitatorBody) => Promise<VerifyResponse>;
  settle: (body: ClassifiedFacilitatorBody) => Promise<SettleResponse>;
  /**
   * Takes over the permit intents a stop left open that this instance may follow now: their journaled relays
   * are watched (re-sent, fee-bumped) from here on. Runs before the daemon listens, so no new send takes the
   * nonce of a relay signed before the restart. Resolves to how many open intents this instance took over
   * and how many it left to the instance whose settle claim holds them.
   */
  resume: () => Promise<{ claimed: number; left: number }>;
  /** Resolves the intents `resume` took over whose burn executed on-chain; returns how many were accepted. */
  reconcileIntents: () => Promise<number>;
  /** Settles still running, for a graceful shutdown. */
  inflight: () => Promise<SettleResponse>[];
};

/** The single-process settlement core; {@link shareSettlement} puts it under the storage's settle claims. */
export type SettlementCore = Pick<SettlementService, "verify" | "settle" | "inflight"> & {
  /** Watches the relay journaled for this open intent with this process's relayer monitor. */
  adoptRelay: (challengeNonce: Hex) => void;
  /** Accepts this open intent when its burn executed and is confirmed; false when it stays open. */
  reconcileIntent: (challengeNonce: Hex) => Promise<boolean>;
};

type PaymentPath = AcceptedPayload["kind"];

/** Wires the settlement core. */
export function createSettlementService(deps: SettlementServiceDependencies): SettlementCore {
  const { client, book, logger } = deps;
  const coordinator = new SettlementCoordinator();
  let tokenName: Promise<string> | undefined;
  const checks: CheckPaymentContext = {
    client,
    challenges: deps.challenges,
    book,
    now: deps.now,
    tokenName: () => {
      tokenName ??= client.readContract({ address: deps.deployment.token, abi: zerc20TokenAbi, functionName: "name" }).catch((error: unknown) => {
        tokenName = undefined;
        throw error;
      });
      return tokenName;
    },
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
    network: toNetwork(entry.challenge.chainId),
    ...(entry.payer === undefined ? {} : { payer: entry.payer }),
    extra: { phase: "accepted" },
  });

  // What a re-send of a settled payment hears: accepted, unless a reorg took its burn (the reorg watch's marks).
  const settledResponse = (entry: SettlementEntry): SettleResponse => {
    if (entry.state === "failed" && entry.reason === BURN_VANISHED_REASON) return failure(BURN_RECEIPT_MISSING, entry.burnTxHash);
    if (entry.burnMissingSince !== undefined) return failure(PENDING_BURN, entry.burnTxHash);
    return acceptedResponse(entry);
  };

  const historyPayment = (challenge: ChallengeRecord, path: PaymentPath, payer: Address | undefined): HistoryPayment => ({
    challengeNonce: challenge.challengeNonce,
    path,
    network: toNetwork(challenge.chainId),
    asset: challenge.asset,
    payTo: challenge.payTo,
    amount: challenge.amount,
    payer,
  });

  const accept = async (
    challenge: ChallengeRecord,
    path: PaymentPath,
    digest: Hex,
    payer: Address | undefined,
    burn: ExecutedBurn,
    permit?: { authorizationId: Hex; calldata: Hex | undefined },
  ): Promise<SettleResponse> => {
    const record: AcceptedRecord = {
      type: "accepted",
      challenge: toJournaledChallenge(challenge),
      path,
      payloadDigest: digest,
      ...(payer === undefined ? {} : { payer }),
      burnTxHash: burn.burnTxHash,
      burnBlockNumber: burn.burnBlockNumber.toString(),
      ...(permit === undefined ? {} : { authorizationId: permit.authorizationId }),
      ...(permit?.calldata === undefined ? {} : { relayCalldata: permit.calldata }),
      token: deps.deployment.token,
      verifier: deps.deployment.verifier,
      treasury: deps.deployment.treasury,
      at: deps.now(),
    };
    await deps.record(record);
    deps.challenges.markSettled(challenge.challengeNonce);
    logger.info("payment_accepted", { challenge_nonce: challenge.challengeNonce, path, burn_tx: burn.burnTxHash, amount: challenge.amount });
    deps.history
      .recordAccepted({ ...historyPayment(challenge, path, payer), burnTxHash: burn.burnTxHash })
      .catch((error: unknown) => logger.warn("history_accepted_failed", { challenge_nonce: challenge.challengeNonce, error: errorName(error) }));
    return acceptedResponse({ ...record, challenge, state: "accepted" });
  };

  // The burn once deep enough, where it is then (a reorg while waiting may have moved or removed it).
  const confirm = async (burn: ExecutedBurn, timeoutMs: number): Promise<ExecutedBurn | undefined> => {
    if (deps.finality.confirmations <= 1) return burn;
    if (!(await deps.finality.confirmed(burn.burnBlockNumber, { timeoutMs, intervalMs: deps.receiptPollMs }))) return undefined;
    const receipt = await client.getTransactionReceipt({ hash: burn.burnTxHash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
    if (receipt?.status !== "success" || receipt.blockNumber !== burn.burnBlockNumber) return undefined;
    return burn;
  };

  const relays = createPermitRelays({
    client,
    relayer: deps.relayer,
    record: deps.record,
    logger,
    now: deps.now,
    accept: (relay, burn) => accept(relay.challenge, "permit", relay.digest, relay.payer, burn, relay),
    confirm,
    failure,
    receiptTimeoutMs: deps.permitReceiptTimeoutMs,
    receiptPollMs: deps.receiptPollMs,
  });
  // A stuck or dropped relay is re-sent or bumped, journal first, by whichever instance holds its intent's claim.
  const adoptRelay = (challengeNonce: Hex): void => {
    const journaled = book.relay(challengeNonce);
    if (journaled) deps.relayer.monitor.adopt(journaled.rawTransaction as Hex, relays.journalRelay(challengeNonce));
  };

  const recordLateBurn = async (challenge: ChallengeRecord, burnTxHash: Hex, evidence: LateBurnEvidence) => {
    if (book.burnTxOwner(burnTxHash) !== undefined) return;
    await deps.record({
      type: "late_burn",
      challenge: toJournaledChallenge(challenge),
      path: "self-transfer",
      burnTxHash,
      value: evidence.value.toString(),
      blockTimestamp: evidence.blockTimestamp,
      at: deps.now(),
    });
    logger.warn("late_burn_refused", {
      challenge_nonce: challenge.challengeNonce,
      burn_tx: burnTxHash,
      expires_at: challenge.expiresAt,
      block_timestamp: evidence.blockTimestamp,
    });
  };

  const relayPermit = async (match: OpenMatch, digest: Hex, permit: CheckedPermit): Promise<SettleResponse> => {
    const { challenge } = match;
    const relay: PermitRelay = {
      challenge,
      digest,
      payer: permit.payer,
      helper: permit.helper,
      authorizationId: permit.authorizationId,
      fromBlock: match.intent ? BigInt(match.intent.fromBlock) : 0n,
      calldata: permit.calldata,
    };
    if (permit.alreadyExecuted) {
      const burn = await findPermitBurn(client, { helper: permit.helper, authorizationId: permit.authorizationId, fromBlock: relay.fromBlock });
      if (!burn) return failure(PENDING_BURN);
      const confirmed = await confirm({ burnTxHash: burn.txHash, burnBlockNumber: burn.blockNumber }, deps.permitReceiptTimeoutMs);
      if (!confirmed) return failure(PENDING_BURN, burn.txHash);
      return accept(challenge, "permit", digest, permit.payer, confirmed, permit);
    }
    // No estimate means the relay would revert: nothing is sent and nothing is held.
    if (!permit.call) return failure(RELAY_FAILED);
    if (!book.intent(challenge.challengeNonce)) {
      // The intent policy: no relay without the payment's history intent (see requireIntent).
      const [intent, fromBlock] = await Promise.all([
        requireIntent(deps.history, historyPayment(challenge, "permit", permit.payer), logger),
        client.getBlockNumber(),
      ]);
      if (!intent.recorded) return failure(intent.refusal);
      relay.fromBlock = fromBlock;
      await deps.record({
        type: "intent",
        challenge: toJournaledChallenge(challenge),
        path: "permit",
        payloadDigest: digest,
        authorizationId: permit.authorizationId,
        fromBlock: fromBlock.toString(),
        at: deps.now(),
      });
    }
    return relays.relay(relay, permit.call);
  };

  // A relay of this very payment is already out: its fate comes first. The payment's own checks would only see
  // its effects (a moved nonce, a spent balance) and could never release it.
  const followJournaledRelay = async (match: OpenMatch, payload: PermitPayload, digest: Hex): Promise<SettleResponse | undefined> => {
    const { challenge, intent } = match;
    const journaled = book.relay(challenge.challengeNonce);
    if (!intent?.authorizationId || !journaled || !challenge.helper) return undefined;
    const relay: PermitRelay = {
      challenge,
      digest,
      payer: payload.payer,
      helper: challenge.helper,
      authorizationId: intent.authorizationId,
      fromBlock: BigInt(intent.fromBlock),
      calldata: parseTransaction(journaled.rawTransaction as Hex).data,
    };
    const followed = await relays.follow(relay, journaled);
    return followed === "released" ? undefined : followed;
  };

  const settleClaimed = async (body: PaymentBody, digest: Hex): Promise<SettleResponse> => {
    const match = matchPayment(checks, body, digest);
    if (match.kind === "refused") return failure(match.reason);
    if (match.kind === "settled") return settledResponse(match.entry);
    const { payment } = body;
    if (payment.kind === "permit") {
      const followed = await followJournaledRelay(match, payment.payload, digest);
      if (followed) return followed;
    }
    const evidence = await checkEvidence(checks, match, payment, { relayer: deps.relayer.address });
    if (evidence.kind === "refused") {
      if (evidence.late && payment.kind === "self-transfer") await recordLateBurn(match.challenge, payment.payload.burnTxHash, evidence.late);
      return failure(evidence.reason);
    }
    if (evidence.kind === "permit") return relayPermit(match, digest, evidence.permit);
    if (payment.kind !== "self-transfer") return failure(PAYLOAD_CONFLICT);
    const { payer, blockNumber } = evidence.evidence;
    const burnTxHash = payment.payload.burnTxHash;
    // Not deep enough yet: nothing is consumed, and the same payload settles once it is.
    const confirmed = await confirm({ burnTxHash, burnBlockNumber: blockNumber }, deps.permitReceiptTimeoutMs);
    if (!confirmed) return failure(PENDING_BURN, burnTxHash);
    // The intent policy: no acceptance without the payment's history intent (see requireIntent).
    const intent = await requireIntent(deps.history, historyPayment(match.challenge, "self-transfer", payer), logger);
    if (!intent.recorded) return failure(intent.refusal);
    return accept(match.challenge, "self-transfer", digest, payer, confirmed);
  };

  const verify = async (body: ClassifiedFacilitatorBody): Promise<VerifyResponse> => {
    if (!deps.capabilities.acceptsPayments) return invalid(PROFILE_UNSUPPORTED);
    if (body.kind === "rejected") return invalid(body.reason);
    try {
      const result = await checkPayment(checks, body, payloadDigest(body.payment.payload));
      if (!result.valid) return invalid(result.reason);
      return { isValid: true, ...(result.payer === undefined ? {} : { payer: result.payer }) };
    } catch (error) {
      if (!isChainError(error)) throw error;
      logger.warn("chain_unavailable", { during: "verify", error: errorName(error) });
      return invalid(CHAIN_UNAVAILABLE);
    }
  };

  const settle = (body: ClassifiedFacilitatorBody): Promise<SettleResponse> => {
    if (!deps.capabilities.acceptsPayments) return Promise.resolve(failure(PROFILE_UNSUPPORTED));
    if (body.kind === "rejected") return Promise.resolve(failure(body.reason));
    const challengeNonce = body.payment.payload.challengeNonce;
    const digest = payloadDigest(body.payment.payload);
    const running = coordinator.running(challengeNonce);
    // A concurrent identical settle shares the one running; anything else for this challenge is refused.
    if (running) return running.digest === digest ? running.result : Promise.resolve(failure(PAYLOAD_CONFLICT));
    return coordinator.run(challengeNonce, digest, async () => {
      let response: SettleResponse;
      try {
        response = await settleClaimed(body, digest);
      } catch (error) {
        // Nothing was consumed: every write before an irreversible step is journaled, and the claim is released
        // when this settle ends, so the payer re-sends the same payload.
        if (!isChainError(error)) throw error;
        logger.warn("chain_unavailable", { during: "settle", challenge_nonce: challengeNonce, error: errorName(error) });
        response = failure(CHAIN_UNAVAILABLE);
      }
      if (!response.success) logger.info("settle_refused", { challenge_nonce: challengeNonce, reason: response.errorReason });
      return response;
    });
  };

  const reconcileIntent = async (challengeNonce: Hex): Promise<boolean> => {
    const intent = book.intent(challengeNonce);
    if (intent === undefined || book.entry(challengeNonce) !== undefined) return false;
    const { challenge } = intent;
    if (!intent.authorizationId || !challenge.helper || coordinator.running(challengeNonce)) return false;
    const burn = await findPermitBurn(client, { helper: challenge.helper, authorizationId: intent.authorizationId, fromBlock: BigInt(intent.fromBlock) });
    if (!burn) {
      // A relay signed before the crash goes out again unchanged, ahead of anything new on its nonce.
      const relay = book.relay(challengeNonce);
      if (relay) await client.sendRawTransaction({ serializedTransaction: relay.rawTransaction as Hex }).catch(() => undefined);
      return false;
    }
    // Not deep enough yet: the intent stays, and the payer's re-send follows the burn.
    const confirmed = await confirm({ burnTxHash: burn.txHash, burnBlockNumber: burn.blockNumber }, 0);
    if (!confirmed) return false;
    const receipt = await client.getTransactionReceipt({ hash: burn.txHash });
    const payer = receipt.from === deps.relayer.address ? undefined : receipt.from;
    const relay = book.relay(challengeNonce);
    const calldata = relay === undefined ? undefined : parseTransaction(relay.rawTransaction as Hex).data;
    await accept(challenge, "permit", intent.payloadDigest, payer, confirmed, { authorizationId: intent.authorizationId, calldata });
    return true;
  };

  return { verify, settle, adoptRelay, reconcileIntent, inflight: () => coordinator.inflight() };
}

// The RPC failing: the transport (unreachable, timed out, HTTP error) or the node answering a read with a
// JSON-RPC error. Anything else thrown is a bug and stays a 500, rather than telling clients to retry forever.
function isChainError(error: unknown): boolean {
  if (!(error instanceof ViemBaseError)) return false;
  return (
    error.walk(
      (cause) =>
        cause instanceof HttpRequestError || cause instanceof TimeoutError || cause instanceof WebSocketRequestError || cause instanceof RpcRequestError,
    ) !== null
  );
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "unknown";
}
