import { formatArtifactTime } from "@svc/scheme";

import type { PaymentHistoryEntry } from "../record/paymentHistoryBook.js";

/** The `type` of the committed record view. */
export const COMMITTED_RECORD_TYPE = "svc-zerc20.history.payment-record";

/**
 * The view of a persisted record that a proof's commitment covers, rebuilt deterministically from the
 * history file at the proof's state: every payment fact including the ones the proof does not disclose
 * (burn address, payer address, burn and mint transactions, payout destination) and both bindings. Recomputing
 * `computeRecordCommitment({ record: committedRecord(entry, state), salt: entry.salt })` opens a proof's
 * commitment; only someone holding the history file (the operator) can, unless it discloses record and salt.
 */
export function committedRecord(entry: PaymentHistoryEntry, state: "accepted" | "finalized"): Record<string, unknown> {
  const participant = (role: "payer" | "provider") => {
    const binding = entry.bindings[role];
    return binding === undefined ? null : { tenant_id: binding.tenantId, actor_id: binding.actorId };
  };
  return {
    type: COMMITTED_RECORD_TYPE,
    version: 1,
    payment_id: entry.paymentId,
    state,
    path: entry.path,
    network: entry.network,
    asset: entry.asset.toLowerCase(),
    amount: entry.amount,
    pay_to: entry.payTo.toLowerCase(),
    payer: entry.payer?.toLowerCase() ?? null,
    recipient: entry.recipient.toLowerCase(),
    burn_tx_hash: entry.burnTxHash?.toLowerCase() ?? null,
    participants: { payer: participant("payer"), provider: participant("provider") },
    intent_at: formatArtifactTime(entry.at),
    accepted_at: entry.acceptedAt === undefined ? null : formatArtifactTime(entry.acceptedAt),
    ...(state === "finalized"
      ? {
          finalized_at: entry.finalizedAt === undefined ? null : formatArtifactTime(entry.finalizedAt),
          mint_tx_hash: entry.mintTxHash?.toLowerCase() ?? null,
        }
      : {}),
  };
}
