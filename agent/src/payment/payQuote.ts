import {
  BurnBroadcastError,
  BurnRevertedError,
  BurnUnconfirmedError,
  OfferExpiringError,
  type PayerClients,
  PermitUnavailableError,
  toNetwork,
} from "@svc/scheme";

import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import type { ApprovalResult } from "../approvals/requestApproval.js";
import { describeError } from "../errors/describeError.js";
import { OfferAlreadyUsedError } from "../ledger/errors.js";
import type { Ledger } from "../ledger/ledger.js";
import type { LedgerEntry } from "../ledger/ledgerEntry.js";
import { SPEND_LIMITS } from "../ledger/spendLimits.js";
import { evaluateOffer } from "../policy/evaluateOffer.js";
import { type AmountFormat, BASE_UNITS_FORMAT } from "./amountFormat.js";
import { offerUsableUntil } from "../policy/offerUsableUntil.js";
import type { Policy } from "../policy/policy.js";
import { limitsForToken } from "../policy/tokenLimits.js";
import { createPayerClients } from "./createPayerClients.js";
import { describeOverLimit } from "./describeOverLimit.js";
import { createPaymentHeader } from "./createPaymentHeader.js";
import { outcomeOffer } from "./outcomeOffer.js";
import type { OnPayEvent } from "./payEvent.js";
import type { OutcomeOffer, PayOutcome } from "./payOutcome.js";
import type { Quote } from "./quote.js";
import { sendStoredPayment } from "./sendStoredPayment.js";

/** Asks a human about a quote above `SVC_APPROVE_ABOVE`; resolves by `request.decideBy` at the latest. */
export type ApprovalGate = (request: ApprovalRequest) => Promise<ApprovalResult>;

/** Inputs to `payQuote`. */
export type PayQuoteParameters = {
  quote: Quote;
  policy: Policy;
  ledger: Ledger;
  /** How approval is asked: a file in the state folder (headless) or the TUI's inline prompt. */
  approve: ApprovalGate;
  onEvent?: OnPayEvent | undefined;
  /** Injected viem clients; built from the policy when omitted. */
  clients?: PayerClients | undefined;
  now?: (() => number) | undefined;
  /** How amounts read in messages; base units when the token is unknown. */
  format?: AmountFormat | undefined;
  /** The MCP server session paying, stored on the entry for `SVC_MAX_PER_MCP_SESSION`. */
  mcpSession?: string | undefined;
};

/**
 * Pays one quote, in the order the money rules need: re-check the policy; reserve the amount in the ledger
 * under the total cap; ask a human when the amount is above the approval threshold; sign (or burn); store
 * the signed header durably; send it once. Every refusal happens before anything is signed or broadcast,
 * and a reservation is released only when the payment definitely did not happen.
 *
 * @example
 * const outcome = await payQuote({ quote, policy, ledger: new Ledger(policy.stateDir), approve: fileApproval });
 */
export async function payQuote(parameters: PayQuoteParameters): Promise<PayOutcome> {
  const { quote, policy, ledger, onEvent } = parameters;
  const now = parameters.now ?? Date.now;
  const { offer } = quote;
  const network = toNetwork(offer.chainId);
  const summary = outcomeOffer({ network, asset: offer.asset, amount: offer.amount });

  const format = parameters.format ?? BASE_UNITS_FORMAT;
  const decimals = quote.token?.decimals;
  const verdict = evaluateOffer(policy, offer, now(), format, decimals);
  if (verdict.kind === "declined") return { kind: "declined", reason: verdict.reason, message: verdict.message, offer: summary };
  const clients = parameters.clients ?? createPayerClients(policy);

  const { asset, amount, payTo, challengeNonce, expiresAt } = offer;
  let reservation;
  try {
    reservation = await ledger.reserve(
      {
        url: quote.url.href,
        mode: policy.mode,
        network,
        asset,
        amount,
        payTo,
        challengeNonce,
        expiresAt,
        request: quote.request,
        mcpSession: parameters.mcpSession,
      },
      limitsForToken(policy, decimals) ?? {},
    );
  } catch (error) {
    if (error instanceof OfferAlreadyUsedError) return { kind: "failed", id: error.existingId, offer: summary, message: error.shortMessage };
    throw error;
  }
  if (reservation.kind === "over-cap") {
    return {
      kind: "declined",
      reason: SPEND_LIMITS[reservation.limit].reason,
      offer: summary,
      message: describeOverLimit(reservation, { network, asset, amount, host: quote.url.hostname }, format),
    };
  }
  const { entry } = reservation;
  const id = entry.id;
  onEvent?.({ type: "reserved", id, spentBefore: reservation.spentBefore.toString() });

  if (verdict.needsApproval) {
    const denied = await askForApproval(parameters, entry);
    if (denied !== undefined) return denied;
    const again = evaluateOffer(policy, offer, now(), format, decimals);
    if (again.kind === "declined") {
      await ledger.recordOutcome(id, { status: "released", message: again.message });
      return { kind: "declined", reason: again.reason, message: again.message, id, offer: summary };
    }
  }

  let paymentHeader: string;
  try {
    paymentHeader = await createPaymentHeader({
      quote,
      policy,
      clients,
      now,
      onPhase: async (event) => {
        // Durable before the burn leaves: after a crash the ledger still names the transaction to look for.
        if (event.phase === "broadcasting") await ledger.recordBurn(id, event.txHash);
        onEvent?.({ type: "phase", id, phase: event.phase, txHash: "txHash" in event ? event.txHash : undefined });
      },
    });
  } catch (error) {
    return recordCreationFailure(ledger, id, error, summary);
  }
  const signed = await ledger.recordSigned(id, paymentHeader);
  return sendStoredPayment({ entry: { ...signed, paymentHeader }, policy, ledger, onEvent });
}

/** Runs the approval gate; resolves `undefined` when approved, else the outcome after releasing the spend. */
async function askForApproval(parameters: PayQuoteParameters, entry: LedgerEntry): Promise<PayOutcome | undefined> {
  const { policy, ledger, onEvent } = parameters;
  const now = parameters.now ?? Date.now;
  // A human's yes is worth nothing once the offer cannot be paid, so the question closes then at the latest.
  const timeoutAt = now() + policy.approvalTimeoutMs;
  const usableUntil = offerUsableUntil(entry.mode, entry.expiresAt);
  const request: ApprovalRequest = {
    id: entry.id,
    url: entry.url,
    mode: entry.mode,
    network: entry.network,
    asset: entry.asset,
    amount: entry.amount,
    threshold: (limitsForToken(policy, parameters.quote.token?.decimals)?.approveAbove ?? 0n).toString(),
    offerExpiresAt: entry.expiresAt,
    decideBy: Math.min(timeoutAt, usableUntil),
    decideByReason: usableUntil < timeoutAt ? "offer_expiry" : "approval_timeout",
    pid: process.pid,
    createdAt: new Date(now()).toISOString(),
  };
  onEvent?.({ type: "approval-pending", request });
  let result: ApprovalResult;
  try {
    result = await parameters.approve(request);
  } catch (error) {
    await ledger.recordOutcome(entry.id, { status: "released", message: `approval failed: ${describeError(error)}` });
    throw error;
  }
  onEvent?.({ type: "approval-decided", id: entry.id, result });
  if (result === "approved") return undefined;
  const message =
    result === "denied"
      ? "a human denied the payment"
      : request.decideByReason === "offer_expiry"
        ? `no decision before the offer's last usable moment (${new Date(request.decideBy).toISOString()}); declined`
        : `no decision within SVC_APPROVAL_TIMEOUT_MS (${policy.approvalTimeoutMs} ms); declined`;
  // The reason code lets any process reading the ledger (e.g. another MCP session) tell a denial from a timeout.
  await ledger.recordOutcome(entry.id, { status: "released", errorReason: result === "denied" ? "approval_denied" : "approval_timed_out", message });
  return { kind: "approval-denied", id: entry.id, result, message, offer: outcomeOffer(entry) };
}

/**
 * Records why no header was produced. An unconfirmed burn, or a failure after a burn was broadcast, keeps
 * the spend (`unknown`); everything else (refusals before signing, a node that refused the burn, a burn that
 * reverted and so moved nothing) releases it.
 */
async function recordCreationFailure(ledger: Ledger, id: string, error: unknown, offer: OutcomeOffer): Promise<PayOutcome> {
  const message = describeError(error);
  const entry = await ledger.get(id);
  const definite = error instanceof BurnBroadcastError || error instanceof BurnRevertedError || entry.burnTxHash === undefined;
  if (error instanceof BurnUnconfirmedError || !definite) {
    const unknown = `${message} The spend stays reserved; check the burn ${entry.burnTxHash ?? ""} on-chain before paying this resource again.`;
    await ledger.recordOutcome(id, { status: "unknown", message: unknown });
    return { kind: "unknown", id, offer, message: unknown };
  }
  await ledger.recordOutcome(id, { status: "released", message });
  if (error instanceof PermitUnavailableError) return { kind: "declined", reason: "permit_unavailable", id, offer, message };
  if (error instanceof OfferExpiringError) return { kind: "declined", reason: "offer_expiring", id, offer, message };
  return { kind: "failed", id, offer, message: `${message} Nothing was paid.` };
}
