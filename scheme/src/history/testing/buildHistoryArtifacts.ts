/**
 * Test builders for history artifacts: deterministic Ed25519 keys from labels, a trust anchor, a signed
 * manifest, proofs and status chains, each with overrides. Test-only; nothing in the library imports it.
 */
import { createHash, createPrivateKey, type KeyObject } from "node:crypto";

import { artifactDigest } from "../artifactDigest.js";
import { signArtifact } from "../artifactSignature.js";
import { formatArtifactTime } from "../artifactTime.js";
import { ed25519PublicKeyOf } from "../ed25519Key.js";
import { ISSUER_MANIFEST_TYPE, type IssuerKey, type IssuerManifest, type IssuerManifestPayload } from "../issuerManifest.js";
import { PAYMENT_PROOF_TYPE, type PaymentProof, type PaymentProofPayload, RECORD_COMMITMENT_ALG } from "../paymentProof.js";
import { PROOF_STATUS_TYPE, type ProofStatus, type ProofStatusPayload } from "../proofStatus.js";
import { TRUST_ANCHOR_TYPE, type TrustAnchor } from "../trustAnchor.js";

/** 2030-01-01T00:00:00Z: the issuance instant the builders use. */
export const T0 = 1_893_456_000;

/** One test key: id, private key and raw base64url public key. */
export type TestKey = { keyId: string; privateKey: KeyObject; publicKey: string };

const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** A deterministic Ed25519 key derived from `label`, so failures print the same bytes every run. */
export function testKey(label: string, keyId = label): TestKey {
  const seed = createHash("sha256").update(label).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" });
  return { keyId, privateKey, publicKey: ed25519PublicKeyOf(privateKey) };
}

/** The root and issuer keys most tests use. */
export const ROOT = testKey("root", "root-1");
/** The issuer key most tests use. */
export const ISSUER = testKey("issuer", "issuer-1");

/** A trust anchor listing `roots` for issuer `svc-test`. */
export function buildTrustAnchor(roots: readonly TestKey[] = [ROOT], overrides: Partial<TrustAnchor> = {}): TrustAnchor {
  return {
    type: TRUST_ANCHOR_TYPE,
    version: 1,
    issuer: "svc-test",
    root_keys: roots.map((key) => ({ key_id: key.keyId, alg: "Ed25519" as const, public_key: key.publicKey })),
    ...overrides,
  };
}

/** A manifest entry for `key`, created at `T0 - 1 day` unless overridden. */
export function issuerKeyEntry(key: TestKey, overrides: Partial<IssuerKey> = {}): IssuerKey {
  return { key_id: key.keyId, alg: "Ed25519", public_key: key.publicKey, created_at: formatArtifactTime(T0 - 86_400), ...overrides };
}

/** A manifest listing `keys`, signed by `root`. */
export function buildManifest(
  keys: readonly IssuerKey[] = [issuerKeyEntry(ISSUER)],
  root: TestKey = ROOT,
  overrides: Partial<IssuerManifestPayload> = {},
): IssuerManifest {
  const payload: IssuerManifestPayload = {
    type: ISSUER_MANIFEST_TYPE,
    version: 1,
    issuer: "svc-test",
    sequence: 1,
    issued_at: formatArtifactTime(T0 - 86_400),
    keys: [...keys],
    ...overrides,
  };
  return signArtifact(payload, root);
}

/** A proof issued at `T0`, valid for 30 days, signed by `signer`. */
export function buildProof(overrides: Partial<PaymentProofPayload> = {}, signer: TestKey = ISSUER): PaymentProof {
  const payload: PaymentProofPayload = {
    type: PAYMENT_PROOF_TYPE,
    version: 1,
    proof_id: "0123456789abcdef0123456789abcdef",
    issuer: "svc-test",
    key_id: signer.keyId,
    issued_at: formatArtifactTime(T0),
    expires_at: formatArtifactTime(T0 + 30 * 86_400),
    requested_by: "payer",
    payment: {
      payment_id: `0x${"cd".repeat(32)}`,
      state: "accepted",
      network: "eip155:31337",
      asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      amount: "1000",
      accepted_at: formatArtifactTime(T0 - 60),
    },
    participants: { payer: { tenant_id: "tenant-a", actor_id: "agent-1" }, provider: { tenant_id: "tenant-p", actor_id: "shop" } },
    record_commitment: { alg: RECORD_COMMITMENT_ALG, value: "ab".repeat(32) },
    ...overrides,
  };
  return signArtifact(payload, signer);
}

/** One step of a status chain to build: its status and times (unix seconds). */
export type StatusStep = { status: "active" | "revoked"; issuedAt: number; effectiveAt?: number; signer?: TestKey };

/** A correctly linked status chain for `proof`; the first step defaults to active at the proof's issuance. */
export function buildStatusChain(proof: PaymentProof, steps: readonly StatusStep[] = [{ status: "active", issuedAt: T0 }]): ProofStatus[] {
  const chain: ProofStatus[] = [];
  for (const [index, step] of steps.entries()) {
    const previous = chain[index - 1];
    chain.push(
      buildStatus(
        proof,
        {
          sequence: index,
          previous: previous === undefined ? null : artifactDigest(previous),
          status: step.status,
          issued_at: formatArtifactTime(step.issuedAt),
          effective_at: formatArtifactTime(step.effectiveAt ?? step.issuedAt),
        },
        step.signer,
      ),
    );
  }
  return chain;
}

/** One status artifact bound to `proof`, with overrides, signed by `signer`. */
export function buildStatus(proof: PaymentProof, overrides: Partial<ProofStatusPayload> = {}, signer: TestKey = ISSUER): ProofStatus {
  const payload: ProofStatusPayload = {
    type: PROOF_STATUS_TYPE,
    version: 1,
    sequence: 0,
    previous: null,
    issuer: proof.payload.issuer,
    key_id: proof.payload.key_id,
    proof_id: proof.payload.proof_id,
    proof_digest: artifactDigest(proof),
    payment_id: proof.payload.payment.payment_id,
    status: "active",
    effective_at: proof.payload.issued_at,
    issued_at: proof.payload.issued_at,
    ...overrides,
  };
  return signArtifact(payload, signer);
}

/** A deep copy through JSON, as a verifier receives artifacts from a file. */
export function viaJson(artifact: unknown): unknown {
  return JSON.parse(JSON.stringify(artifact, null, 2));
}
