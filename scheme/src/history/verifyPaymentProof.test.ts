import { afterEach, describe, expect, it, vi } from "vitest";

import { formatArtifactTime } from "./artifactTime.js";
import { computeRecordCommitment } from "./recordCommitment.js";
import {
  buildManifest,
  buildProof,
  buildStatus,
  buildStatusChain,
  buildTrustAnchor,
  ISSUER,
  issuerKeyEntry,
  ROOT,
  T0,
  testKey,
  viaJson,
} from "./testing/buildHistoryArtifacts.js";
import { verifyPaymentProof, type VerifyPaymentProofParameters } from "./verifyPaymentProof.js";

const DAY = 86_400;
const at = (unixSeconds: number) => new Date(unixSeconds * 1000);

/** Verifies artifacts the way a third party gets them: from JSON files. */
function check(parameters: Partial<VerifyPaymentProofParameters> & { proof?: unknown } = {}) {
  const proof = parameters.proof ?? buildProof();
  return verifyPaymentProof({
    proof: viaJson(proof),
    manifest: viaJson(parameters.manifest ?? buildManifest()),
    trustAnchor: viaJson(parameters.trustAnchor ?? buildTrustAnchor()),
    ...(parameters.statusChain === undefined ? {} : { statusChain: viaJson(parameters.statusChain) }),
    at: parameters.at ?? at(T0 + DAY),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("verifyPaymentProof: the six results", () => {
  it("VALID_AT_ISSUANCE without a status chain, with the verified payload", () => {
    const verification = check();
    expect(verification.result).toBe("VALID_AT_ISSUANCE");
    expect(verification.reason).toMatch(/no status supplied/);
    expect(verification.proof?.payment.amount).toBe("1000");
  });

  it("VALID_NOW with an active status and an unrevoked key", () => {
    const proof = buildProof();
    expect(check({ proof, statusChain: buildStatusChain(proof) })).toMatchObject({ result: "VALID_NOW" });
  });

  it("REVOKED by a signed revocation effective before the verification time", () => {
    const proof = buildProof();
    const statusChain = buildStatusChain(proof, [
      { status: "active", issuedAt: T0 },
      { status: "revoked", issuedAt: T0 + 2 * DAY },
    ]);
    expect(check({ proof, statusChain, at: at(T0 + 3 * DAY) })).toMatchObject({ result: "REVOKED", reason: expect.stringMatching(/revoked effective/) });
    // Before the revocation took effect the same chain says the proof was valid then.
    expect(check({ proof, statusChain, at: at(T0 + DAY) }).result).toBe("VALID_NOW");
  });

  it("REVOKED when the active status is evaluated after the signing key's revoked_at", () => {
    const proof = buildProof();
    const manifest = buildManifest([issuerKeyEntry(ISSUER, { revoked_at: formatArtifactTime(T0 + 2 * DAY) })]);
    const statusChain = buildStatusChain(proof);
    expect(check({ proof, manifest, statusChain, at: at(T0 + 3 * DAY) })).toMatchObject({
      result: "REVOKED",
      reason: expect.stringMatching(/signing key was revoked/),
    });
    expect(check({ proof, manifest, statusChain, at: at(T0 + DAY) }).result).toBe("VALID_NOW");
    // Without a status there is no current-status claim, so a later key revocation does not change the answer.
    expect(check({ proof, manifest, at: at(T0 + 3 * DAY) }).result).toBe("VALID_AT_ISSUANCE");
  });

  it("EXPIRED once the validity window ended, whatever the status says", () => {
    const proof = buildProof({ expires_at: formatArtifactTime(T0 + DAY) });
    expect(check({ proof, at: at(T0 + DAY) })).toMatchObject({ result: "EXPIRED", reason: expect.stringMatching(/expired at/) });
    const broken = buildStatusChain(proof).map((status) => ({ ...status, signature: { ...status.signature, key_id: "nobody" } }));
    expect(check({ proof, statusChain: broken, at: at(T0 + 2 * DAY) }).result).toBe("EXPIRED");
  });

  it("STATUS_UNKNOWN for a supplied status that cannot be verified", () => {
    const proof = buildProof();
    expect(check({ proof, statusChain: "not a chain" }).result).toBe("STATUS_UNKNOWN");
    expect(check({ proof, statusChain: [] }).result).toBe("STATUS_UNKNOWN");
  });

  it("INVALID for a malformed proof", () => {
    expect(check({ proof: { hello: "world" } })).toMatchObject({ result: "INVALID", reason: expect.stringMatching(/^proof is malformed/) });
  });
});

describe("verifyPaymentProof: INVALID before anything else", () => {
  it("refuses a proof with one tampered byte", () => {
    const text = JSON.stringify(buildProof());
    const tampered = JSON.parse(text.replace('"amount":"1000"', '"amount":"1001"')) as unknown;
    expect(check({ proof: tampered })).toMatchObject({ result: "INVALID", reason: "proof signature does not verify" });
    // Flip one character of the signature itself.
    const proof = buildProof();
    const value = proof.signature.value;
    const flipped = `${value.slice(0, 10)}${value[10] === "A" ? "B" : "A"}${value.slice(11)}`;
    expect(check({ proof: { ...proof, signature: { ...proof.signature, value: flipped } } }).result).toBe("INVALID");
  });

  it("refuses a field added to the signed payload, even one a lenient parser would drop", () => {
    const proof = buildProof();
    expect(check({ proof: { ...proof, payload: { ...proof.payload, note: "paid in full" } } }).result).toBe("INVALID");
  });

  it("refuses a manifest not signed by the trust anchor", () => {
    const impostor = testKey("impostor-root", ROOT.keyId);
    expect(check({ manifest: buildManifest(undefined, impostor) })).toMatchObject({
      result: "INVALID",
      reason: "manifest signature does not verify against the trust anchor",
    });
    expect(check({ trustAnchor: buildTrustAnchor([testKey("other-root", "root-9")]) }).reason).toBe("manifest is not signed by a root key of the trust anchor");
    expect(check({ trustAnchor: buildTrustAnchor(undefined, { issuer: "someone-else" }) }).result).toBe("INVALID");
  });

  it("refuses a manifest whose key list was edited after signing", () => {
    const manifest = buildManifest();
    const rogue = testKey("rogue", "issuer-1");
    const edited = { ...manifest, payload: { ...manifest.payload, keys: [issuerKeyEntry(rogue)] } };
    expect(check({ proof: buildProof({}, rogue), manifest: edited }).result).toBe("INVALID");
  });

  it("refuses a proof signed by a key the manifest does not list, or listed as revoked before issuance", () => {
    expect(check({ proof: buildProof({}, testKey("unlisted", "issuer-2")) }).reason).toBe("proof signing key is not listed in the manifest");
    const revokedEarlier = buildManifest([issuerKeyEntry(ISSUER, { revoked_at: formatArtifactTime(T0 - 1) })]);
    expect(check({ manifest: revokedEarlier })).toMatchObject({
      result: "INVALID",
      reason: "proof signing key was not valid when the proof was issued",
    });
    const createdLater = buildManifest([issuerKeyEntry(ISSUER, { created_at: formatArtifactTime(T0 + 1) })]);
    expect(check({ manifest: createdLater }).result).toBe("INVALID");
  });

  it("refuses a verification time before the proof was issued", () => {
    expect(check({ at: at(T0 - 1) }).result).toBe("INVALID");
  });

  it("puts INVALID ahead of EXPIRED", () => {
    const proof = buildProof({ expires_at: formatArtifactTime(T0 + DAY) });
    expect(check({ proof, manifest: buildManifest(undefined, testKey("x", ROOT.keyId)), at: at(T0 + 5 * DAY) }).result).toBe("INVALID");
  });
});

describe("verifyPaymentProof: status chains", () => {
  const proof = buildProof();
  const twoSteps = buildStatusChain(proof, [
    { status: "active", issuedAt: T0 },
    { status: "revoked", issuedAt: T0 + DAY },
  ]);

  it("refuses a forged status signed by a key outside the manifest", () => {
    const forger = testKey("forger", ISSUER.keyId);
    const forged = buildStatusChain(proof, [{ status: "active", issuedAt: T0, signer: forger }]);
    expect(check({ proof, statusChain: forged })).toMatchObject({ result: "STATUS_UNKNOWN", reason: "status 0 signature does not verify" });
  });

  it("refuses a chain with a link removed, reordered or rewritten", () => {
    expect(check({ proof, statusChain: [twoSteps[1]], at: at(T0 + 2 * DAY) }).result).toBe("STATUS_UNKNOWN");
    expect(check({ proof, statusChain: [...twoSteps].reverse(), at: at(T0 + 2 * DAY) }).result).toBe("STATUS_UNKNOWN");
    const relinked = [twoSteps[0], buildStatus(proof, { ...twoSteps[1]!.payload, previous: "00".repeat(32) })];
    expect(check({ proof, statusChain: relinked, at: at(T0 + 2 * DAY) })).toMatchObject({
      result: "STATUS_UNKNOWN",
      reason: "status 1 does not link to the status before it",
    });
  });

  it("refuses a chain that un-revokes a proof", () => {
    const chain = buildStatusChain(proof, [
      { status: "active", issuedAt: T0 },
      { status: "revoked", issuedAt: T0 + DAY },
      { status: "active", issuedAt: T0 + 2 * DAY },
    ]);
    expect(check({ proof, statusChain: chain, at: at(T0 + 3 * DAY) })).toMatchObject({
      result: "STATUS_UNKNOWN",
      reason: "status 2 follows a revocation, which is final",
    });
  });

  it("refuses a chain that belongs to another proof", () => {
    const other = buildProof({ proof_id: "ffffffffffffffffffffffffffffffff" });
    expect(check({ proof, statusChain: buildStatusChain(other) }).reason).toBe("status 0 is bound to another proof");
  });

  it("refuses a status signed by a key revoked before the status was issued", () => {
    const successor = testKey("issuer-next", "issuer-2");
    const manifest = buildManifest([
      issuerKeyEntry(ISSUER, { revoked_at: formatArtifactTime(T0 + DAY) }),
      issuerKeyEntry(successor, { created_at: formatArtifactTime(T0 + DAY) }),
    ]);
    const lateActive = buildStatusChain(proof, [
      { status: "active", issuedAt: T0 },
      { status: "revoked", issuedAt: T0 + 2 * DAY, signer: ISSUER },
    ]);
    expect(check({ proof, manifest, statusChain: lateActive, at: at(T0 + 3 * DAY) }).result).toBe("STATUS_UNKNOWN");
    // The successor key may sign the revocation instead.
    const bySuccessor = buildStatusChain(proof, [
      { status: "active", issuedAt: T0 },
      { status: "revoked", issuedAt: T0 + 2 * DAY, signer: successor },
    ]);
    expect(check({ proof, manifest, statusChain: bySuccessor, at: at(T0 + 3 * DAY) }).result).toBe("REVOKED");
  });

  it("requires the chain to start active at the proof's issuance", () => {
    const late = [buildStatus(proof, { effective_at: formatArtifactTime(T0 + DAY), issued_at: formatArtifactTime(T0 + DAY) })];
    expect(check({ proof, statusChain: late, at: at(T0 + 2 * DAY) })).toMatchObject({
      result: "STATUS_UNKNOWN",
      reason: "the first status must be active from the proof's issuance",
    });
  });
});

describe("verifyPaymentProof: offline and format-independent", () => {
  it("verifies with every network path failing", () => {
    const noNetwork = vi.fn(() => {
      throw new TypeError("network access is not allowed in this test");
    });
    vi.stubGlobal("fetch", noNetwork);
    const proof = buildProof();
    expect(check({ proof, statusChain: buildStatusChain(proof) }).result).toBe("VALID_NOW");
    expect(noNetwork).not.toHaveBeenCalled();
  });

  it("accepts reordered keys and pretty-printing, because signatures cover the canonical form", () => {
    const proof = buildProof();
    const reordered = { signature: proof.signature, payload: Object.fromEntries(Object.entries(proof.payload).reverse()) };
    expect(check({ proof: reordered }).result).toBe("VALID_AT_ISSUANCE");
  });

  it("lets a holder of the record and salt recompute the commitment", () => {
    const record = { payment_id: `0x${"cd".repeat(32)}`, state: "accepted", amount: "1000" };
    const salt = "11".repeat(32);
    const value = computeRecordCommitment({ record, salt });
    const proof = buildProof({ record_commitment: { alg: "sha256-jcs-salted", value } });
    const verification = check({ proof });
    expect(verification.proof?.record_commitment.value).toBe(computeRecordCommitment({ record: { ...record }, salt }));
    expect(computeRecordCommitment({ record, salt: "22".repeat(32) })).not.toBe(value);
  });
});
