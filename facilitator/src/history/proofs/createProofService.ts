import { randomBytes } from "node:crypto";
import {
  artifactDigest,
  computeRecordCommitment,
  formatArtifactTime,
  PAYMENT_PROOF_TYPE,
  type PaymentProof,
  type PaymentProofPayload,
  PaymentProofSchema,
  PROOF_STATUS_TYPE,
  type ProofIssueResponse,
  type ProofRevokeResponse,
  type ProofStatus,
  type ProofStatusPayload,
  type ProofVerifyResponse,
  RECORD_COMMITMENT_ALG,
  signArtifact,
  verifyPaymentProof,
  verifyStatusChain,
} from "@svc/scheme";

import { committedRecord } from "./committedRecord.js";
import { type HistoryOutcome, refuse } from "../historyOutcome.js";
import type { HistoryPolicy } from "./historyPolicy.js";
import type { ProofIssuer } from "./loadProofIssuer.js";
import type { PaymentHistory } from "../record/openPaymentHistory.js";
import type { IssuedProof, PaymentHistoryEntry } from "../record/paymentHistoryBook.js";
import type { HistoryIdentity } from "../participantBinding.js";
import type { ProofArtifactStore } from "./proofArtifactStore.js";

/** What the proof service works with. */
export type CreateProofServiceParameters = {
  history: PaymentHistory;
  issuer: ProofIssuer;
  artifacts: ProofArtifactStore;
  policy: HistoryPolicy;
  /** Whether the identity may see the payment at all (tenant grant and participant binding). */
  canSee: (identity: HistoryIdentity, entry: PaymentHistoryEntry) => boolean;
  /** Unix milliseconds. */
  now: () => number;
};

/** Issue, verify and revoke, for an identity already authenticated. */
export type ProofService = {
  issue: (identity: HistoryIdentity, paymentId: string) => Promise<HistoryOutcome<ProofIssueResponse>>;
  verify: (identity: HistoryIdentity, proofId: string) => Promise<HistoryOutcome<ProofVerifyResponse>>;
  revoke: (identity: HistoryIdentity, proofId: string, reason: string | undefined) => Promise<HistoryOutcome<ProofRevokeResponse>>;
};

/**
 * Proofs over the persisted history. Issue signs what the history file holds (never anything the caller
 * supplies) for a payment that reached `accepted` or `finalized`, commits to the whole record with its
 * per-record salt, exports the proof with an `active` first status, and registers who asked. Verify runs the
 * offline verifier over the exported artifacts with the daemon's trusted manifest and anchor. Revoke appends
 * a signed `revoked` status; the proof's bytes are never touched and a second revoke returns the first.
 */
export function createProofService({ history, issuer, artifacts, policy, canSee, now }: CreateProofServiceParameters): ProofService {
  const nowSeconds = () => Math.floor(now() / 1000);
  // Revocations of one proof run one at a time, so two can never claim the same chain position.
  const chainLocks = new Map<string, Promise<unknown>>();
  const serialized = <T>(proofId: string, run: () => Promise<T>): Promise<T> => {
    const previous = chainLocks.get(proofId) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => undefined);
    chainLocks.set(proofId, settled);
    void settled.then(() => {
      if (chainLocks.get(proofId) === settled) chainLocks.delete(proofId);
    });
    return next;
  };

  // Proofs issued and payments recorded by other instances are folded before anything is looked up.
  const visibleProof = async (identity: HistoryIdentity, proofId: string): Promise<HistoryOutcome<{ proof: IssuedProof; entry: PaymentHistoryEntry }>> => {
    await history.catchUp();
    const proof = history.book.proof(proofId);
    const entry = proof === undefined ? undefined : history.book.entry(proof.paymentId);
    if (proof === undefined || entry === undefined || !canSee(identity, entry))
      return refuse("not_found", "no proof with this id is visible to this participant");
    return { ok: true, value: { proof, entry } };
  };

  const signStatus = (
    proof: PaymentProof,
    { reason, ...fields }: Pick<ProofStatusPayload, "sequence" | "previous" | "status" | "effective_at" | "issued_at"> & { reason: string | undefined },
  ): ProofStatus => {
    const payload: ProofStatusPayload = {
      type: PROOF_STATUS_TYPE,
      version: 1,
      issuer: proof.payload.issuer,
      key_id: proof.payload.key_id,
      proof_id: proof.payload.proof_id,
      proof_digest: artifactDigest(proof),
      payment_id: proof.payload.payment.payment_id,
      ...fields,
      ...(reason === undefined ? {} : { reason }),
    };
    return signArtifact(payload, issuer.signer);
  };

  // An operator may have moved the export away; that is the export's problem, not a server fault.
  const readArtifacts = async (proofId: string): Promise<HistoryOutcome<{ proof: unknown; statusChain: unknown }>> => {
    try {
      return { ok: true, value: { proof: await artifacts.readProof(proofId), statusChain: await artifacts.readStatusChain(proofId) } };
    } catch {
      return refuse("conflict", "the exported artifacts of this proof cannot be read");
    }
  };

  const issue: ProofService["issue"] = async (identity, paymentId) => {
    await history.catchUp();
    const entry = history.book.entry(paymentId);
    if (entry === undefined || !canSee(identity, entry)) return refuse("not_found", "no payment with this id is visible to this participant");
    if (!policy.mayIssue(identity, entry)) return refuse("forbidden", "the history policy does not allow this participant to issue proofs");
    if (entry.state === "intent" || entry.acceptedAt === undefined) return refuse("conflict", "the payment has not been accepted yet");
    const { payer, provider } = entry.bindings;
    if (payer === undefined || provider === undefined) return refuse("conflict", "the payment record lacks a participant binding");
    const state = entry.state;
    const issuedAt = nowSeconds();
    const payload: PaymentProofPayload = {
      type: PAYMENT_PROOF_TYPE,
      version: 1,
      proof_id: randomBytes(16).toString("hex"),
      issuer: issuer.issuerId,
      key_id: issuer.signer.keyId,
      issued_at: formatArtifactTime(issuedAt),
      expires_at: formatArtifactTime(issuedAt + issuer.ttlSeconds),
      requested_by: identity.subject,
      payment: {
        payment_id: entry.paymentId,
        state,
        network: entry.network,
        asset: entry.asset,
        amount: entry.amount,
        accepted_at: formatArtifactTime(entry.acceptedAt),
        ...(state === "finalized" && entry.finalizedAt !== undefined ? { finalized_at: formatArtifactTime(entry.finalizedAt) } : {}),
      },
      participants: {
        payer: { tenant_id: payer.tenantId, actor_id: payer.actorId },
        provider: { tenant_id: provider.tenantId, actor_id: provider.actorId },
      },
      record_commitment: { alg: RECORD_COMMITMENT_ALG, value: computeRecordCommitment({ record: committedRecord(entry, state), salt: entry.salt }) },
    };
    const proof = signArtifact(payload, issuer.signer);
    const first = signStatus(proof, {
      sequence: 0,
      previous: null,
      status: "active",
      effective_at: payload.issued_at,
      issued_at: payload.issued_at,
      reason: undefined,
    });
    await artifacts.writeIssued(proof, issuer.manifest, first);
    await history.append({
      v: 1,
      type: "proof_issued",
      paymentId: entry.paymentId,
      at: issuedAt,
      proofId: payload.proof_id,
      proofDigest: artifactDigest(proof),
      keyId: payload.key_id,
      expiresAt: issuedAt + issuer.ttlSeconds,
      issuedBy: { subject: identity.subject, tenantId: identity.tenantId, actorId: identity.actorId },
    });
    return { ok: true, value: { proofId: payload.proof_id, proof, manifest: issuer.manifest, statusChain: [first] } };
  };

  const verify: ProofService["verify"] = async (identity, proofId) => {
    const visible = await visibleProof(identity, proofId);
    if (!visible.ok) return visible;
    if (!policy.mayVerify(identity, visible.value.entry, visible.value.proof)) {
      return refuse("forbidden", "the history policy does not allow this participant to verify this proof");
    }
    const read = await readArtifacts(proofId);
    if (!read.ok) return read;
    const verification = verifyPaymentProof({
      proof: read.value.proof,
      manifest: issuer.manifest,
      trustAnchor: issuer.trustAnchor,
      statusChain: read.value.statusChain,
      at: new Date(now()),
    });
    return { ok: true, value: { proofId, result: verification.result, reason: verification.reason } };
  };

  const revoke: ProofService["revoke"] = (identity, proofId, reason) =>
    serialized(proofId, async (): Promise<HistoryOutcome<ProofRevokeResponse>> => {
      const visible = await visibleProof(identity, proofId);
      if (!visible.ok) return visible;
      if (!policy.mayRevoke(identity, visible.value.entry, visible.value.proof)) {
        return refuse("forbidden", "only the participant that issued this proof may revoke it");
      }
      const read = await readArtifacts(proofId);
      if (!read.ok) return read;
      const parsedProof = PaymentProofSchema.safeParse(read.value.proof);
      if (!parsedProof.success || artifactDigest(parsedProof.data) !== visible.value.proof.proofDigest) {
        return refuse("conflict", "the exported proof does not match the registered one");
      }
      const proof = parsedProof.data;
      const chain = verifyStatusChain({ statusChain: read.value.statusChain, proof, manifest: issuer.manifest });
      if (!chain.valid) return refuse("conflict", "the exported status chain does not verify");
      const last = chain.statuses.at(-1);
      if (last === undefined) return refuse("conflict", "the exported status chain is empty");
      if (last.payload.status === "revoked") return { ok: true, value: { proofId, status: last, statusChain: chain.statuses } };
      const at = formatArtifactTime(Math.max(nowSeconds(), Date.parse(last.payload.issued_at) / 1000));
      const status = signStatus(proof, {
        sequence: chain.statuses.length,
        previous: artifactDigest(last),
        status: "revoked",
        effective_at: at,
        issued_at: at,
        reason,
      });
      await artifacts.appendStatus(proofId, status, issuer.manifest);
      return { ok: true, value: { proofId, status, statusChain: [...chain.statuses, status] } };
    });

  return { issue, verify, revoke };
}
