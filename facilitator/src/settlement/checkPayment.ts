/**
 * What makes a payment valid: the one check sequence behind `/verify` and `/settle`, read-only.
 *
 * 1. `matchPayment` (no chain): is the challenge already settled (the same payment gets its answer again,
 *    another gets `payload_conflict`); does it exist (`unknown_challenge`); do the untrusted requirements and
 *    the echoed offer match what was issued (`requirements_mismatch`); is another permit payment already
 *    relaying for it (`payload_conflict`).
 * 2. `checkEvidence` (the chain): self-transfer — the burn is not another challenge's, its receipt, transfer and
 *    balance hold, and it landed before expiry; permit — both signatures, value, deadline, nonce and balance
 *    hold, and the offer is unexpired unless the burn already executed.
 *
 * `/verify` runs both (`checkPayment`). `/settle` runs the same two, with one step between them for a permit
 * relay already out (see createSettlementService), and then acts on the evidence.
 */
import {
  BURN_TX_REUSED,
  CHALLENGE_EXPIRED,
  PAYLOAD_CONFLICT,
  REQUIREMENTS_MISMATCH,
  UNKNOWN_CHALLENGE,
  type ClassifiedFacilitatorBody,
  type ReasonCode,
} from "@svc/scheme";
import type { Address, Hex, PublicClient } from "viem";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { StoredChallenge } from "../challenges/challengeStore.js";
import { checkPermitPayment, type CheckedPermit } from "./checkPermitPayment.js";
import { checkSelfTransferBurn, type LateBurnEvidence, type SelfTransferBurnEvidence } from "./checkSelfTransferBurn.js";
import { requirementsMismatch } from "./requirementsMismatch.js";
import type { OpenIntent, SettlementBook, SettlementEntry } from "./settlementBook.js";

/** A body that passed the wire checks: one of the two payment shapes, x402 or legacy. */
export type PaymentBody = Exclude<ClassifiedFacilitatorBody, { kind: "rejected" }>;

/** Where issued challenges are looked up (the challenge store). */
export type IssuedChallenges = {
  get: (challengeNonce: Hex) => Pick<StoredChallenge, "record" | "status"> | undefined;
};

/** What the checks read. */
export type CheckPaymentContext = {
  client: PublicClient;
  challenges: IssuedChallenges;
  book: Pick<SettlementBook, "entry" | "intent" | "burnTxOwner">;
  /** Unix seconds. */
  now: () => number;
  /** The token's `name()`, the permit's EIP-712 domain name. */
  tokenName: () => Promise<string>;
};

/** The outcome of `matchPayment`. */
export type PaymentMatch =
  | { kind: "refused"; reason: ReasonCode }
  | { kind: "settled"; entry: SettlementEntry }
  | { kind: "open"; challenge: ChallengeRecord; expired: boolean; intent: OpenIntent | undefined };

/** The open challenge a payment matched. */
export type OpenMatch = Extract<PaymentMatch, { kind: "open" }>;

/** The outcome of `checkEvidence`; a late burn carries its evidence so settle can journal it. */
export type PaymentEvidence =
  | { kind: "refused"; reason: ReasonCode; late?: LateBurnEvidence }
  | { kind: "self-transfer"; evidence: SelfTransferBurnEvidence }
  | { kind: "permit"; permit: CheckedPermit };

/** Step 1: which challenge, already settled or not, and whether the payment matches it. */
export function matchPayment(context: CheckPaymentContext, body: PaymentBody, digest: Hex): PaymentMatch {
  const { book } = context;
  const challengeNonce = body.payment.payload.challengeNonce;
  const entry = book.entry(challengeNonce);
  if (entry) {
    if (mismatch(body, entry.challenge)) return { kind: "refused", reason: REQUIREMENTS_MISMATCH };
    return entry.payloadDigest === digest ? { kind: "settled", entry } : { kind: "refused", reason: PAYLOAD_CONFLICT };
  }
  const intent = book.intent(challengeNonce);
  const live = context.challenges.get(challengeNonce);
  // A permit intent keeps its offer even once the store has forgotten it: its burn may still land.
  const challenge = live?.record ?? intent?.challenge;
  if (challenge === undefined) return { kind: "refused", reason: UNKNOWN_CHALLENGE };
  if (mismatch(body, challenge)) return { kind: "refused", reason: REQUIREMENTS_MISMATCH };
  if (body.payment.kind === "permit" && intent && intent.payloadDigest !== digest) return { kind: "refused", reason: PAYLOAD_CONFLICT };
  const expired = live?.status === "expired" || context.now() > challenge.expiresAt;
  return { kind: "open", challenge, expired, intent };
}

/** Step 2: the chain evidence. `relayer` asks for the relay's estimate too (settle only). */
export async function checkEvidence(
  context: CheckPaymentContext,
  match: OpenMatch,
  payment: PaymentBody["payment"],
  options: { relayer?: Address } = {},
): Promise<PaymentEvidence> {
  const { challenge, expired } = match;
  if (payment.kind === "self-transfer") {
    const owner = context.book.burnTxOwner(payment.payload.burnTxHash);
    if (owner !== undefined && owner !== challenge.challengeNonce.toLowerCase()) return { kind: "refused", reason: BURN_TX_REUSED };
    const check = await checkSelfTransferBurn(context.client, {
      token: challenge.asset,
      payTo: challenge.payTo,
      amount: challenge.amount,
      expiresAt: challenge.expiresAt,
      burnTxHash: payment.payload.burnTxHash,
    });
    if (!check.ok) return { kind: "refused", reason: check.reason, ...(check.late ? { late: check.late } : {}) };
    if (expired) return { kind: "refused", reason: CHALLENGE_EXPIRED };
    return { kind: "self-transfer", evidence: check.evidence };
  }
  const now = context.now();
  const check = await checkPermitPayment({
    client: context.client,
    offer: challenge,
    payload: payment.payload,
    tokenName: await context.tokenName(),
    now,
    ...(options.relayer === undefined ? {} : { relayer: options.relayer }),
  });
  if (!check.ok) return { kind: "refused", reason: check.reason };
  // An executed burn is settled whatever the clock says; an unexecuted one may not start after expiry.
  if (!check.permit.alreadyExecuted && expired) return { kind: "refused", reason: CHALLENGE_EXPIRED };
  return { kind: "permit", permit: check.permit };
}

/** Both steps: everything `/verify` checks. Valid carries the payer the evidence names. */
export async function checkPayment(
  context: CheckPaymentContext,
  body: PaymentBody,
  digest: Hex,
): Promise<{ valid: true; payer: Address | undefined } | { valid: false; reason: ReasonCode }> {
  const match = matchPayment(context, body, digest);
  if (match.kind === "refused") return { valid: false, reason: match.reason };
  if (match.kind === "settled") return { valid: true, payer: match.entry.payer };
  const evidence = await checkEvidence(context, match, body.payment);
  if (evidence.kind === "refused") return { valid: false, reason: evidence.reason };
  return { valid: true, payer: evidence.kind === "self-transfer" ? evidence.evidence.payer : evidence.permit.payer };
}

// Untrusted requirements (and the echoed offer) must agree with what was issued, field by field.
function mismatch(body: PaymentBody, challenge: ChallengeRecord): string | undefined {
  if (body.kind === "legacy") return undefined;
  return requirementsMismatch(challenge, body.request.paymentRequirements) ?? requirementsMismatch(challenge, body.request.paymentPayload.accepted);
}
