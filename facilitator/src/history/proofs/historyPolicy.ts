/**
 * Who may issue, verify and revoke proofs. The policy only narrows: the tenant grant and the participant
 * binding are checked before it, so no policy can open a payment to a caller it is not bound to.
 *
 * The default ({@link defaultHistoryPolicy}): a participant may issue and verify proofs for payments bound to
 * it (payer and provider alike); only the participant that issued a proof (same role, tenant and actor) may
 * revoke it, so the other party cannot withdraw a proof it did not hand out.
 */
import type { IssuedProof, PaymentHistoryEntry } from "../record/paymentHistoryBook.js";
import type { HistoryIdentity } from "../participantBinding.js";

/** The proof authorization policy, a code-level option of the daemon. */
export type HistoryPolicy = {
  mayIssue: (identity: HistoryIdentity, entry: PaymentHistoryEntry) => boolean;
  mayVerify: (identity: HistoryIdentity, entry: PaymentHistoryEntry, proof: IssuedProof) => boolean;
  mayRevoke: (identity: HistoryIdentity, entry: PaymentHistoryEntry, proof: IssuedProof) => boolean;
};

/** The safe default: bound participants issue and verify; only the issuing participant revokes. */
export const defaultHistoryPolicy: HistoryPolicy = {
  mayIssue: () => true,
  mayVerify: () => true,
  mayRevoke: (identity, _entry, proof) =>
    proof.issuedBy.subject === identity.subject && proof.issuedBy.tenantId === identity.tenantId && proof.issuedBy.actorId === identity.actorId,
};
