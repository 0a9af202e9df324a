/**
 * The history operator commands and the offline verifier through the real command line (in-process):
 * `history-keys init|rotate|revoke` and `verify-proof`, over files only.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createPrivateKey } from "node:crypto";
import {
  artifactDigest,
  formatArtifactTime,
  PAYMENT_PROOF_TYPE,
  type PaymentProofPayload,
  PROOF_STATUS_TYPE,
  RECORD_COMMITMENT_ALG,
  signArtifact,
  verifyIssuerManifest,
} from "@svc/scheme";
import { afterEach, describe, expect, it } from "vitest";

import { EXIT_USAGE, runCli } from "../runCli.js";

let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        append(chunk.toString());
        callback();
      },
    });
  const code = await runCli(argv, {
    env: {},
    stdin: process.stdin,
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    colorDepth: 1,
  });
  return { code, stdout, stderr };
}

async function keyFolder(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "history-keys-"));
  const keys = join(dir, "keys");
  const init = await cli(["history-keys", "init", "--dir", keys, "--issuer", "pay.example", "--json"]);
  expect(init.code).toBe(0);
  return keys;
}

const readJson = async (path: string): Promise<any> => JSON.parse(await readFile(path, "utf8"));

/** Signs a proof (and its first status) with the folder's current issuer key, as the daemon would. */
async function issueProofFiles(keys: string, issuedAt: number, ttl = 86_400): Promise<{ proof: string; chain: string; manifest: string; anchor: string }> {
  const manifest = await readJson(join(keys, "manifest.json"));
  const privateKey = createPrivateKey(await readFile(join(keys, "issuer-key.pem"), "utf8"));
  const keyId: string = manifest.payload.keys.at(-1).key_id;
  const payload: PaymentProofPayload = {
    type: PAYMENT_PROOF_TYPE,
    version: 1,
    proof_id: "0123456789abcdef0123456789abcdef",
    issuer: "pay.example",
    key_id: keyId,
    issued_at: formatArtifactTime(issuedAt),
    expires_at: formatArtifactTime(issuedAt + ttl),
    requested_by: "payer",
    payment: {
      payment_id: `0x${"cd".repeat(32)}`,
      state: "accepted",
      network: "eip155:31337",
      asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      amount: "1000",
      accepted_at: formatArtifactTime(issuedAt - 5),
    },
    participants: { payer: { tenant_id: "t", actor_id: "a" }, provider: { tenant_id: "p", actor_id: "s" } },
    record_commitment: { alg: RECORD_COMMITMENT_ALG, value: "ab".repeat(32) },
  };
  const proof = signArtifact(payload, { keyId, privateKey });
  const status = signArtifact(
    {
      type: PROOF_STATUS_TYPE,
      version: 1 as const,
      sequence: 0,
      previous: null,
      issuer: "pay.example",
      key_id: keyId,
      proof_id: payload.proof_id,
      proof_digest: artifactDigest(proof),
      payment_id: payload.payment.payment_id,
      status: "active" as const,
      effective_at: payload.issued_at,
      issued_at: payload.issued_at,
    },
    { keyId, privateKey },
  );
  const files = {
    proof: join(keys, "proof.json"),
    chain: join(keys, "status-chain.jsonl"),
    manifest: join(keys, "manifest.json"),
    anchor: join(keys, "trust-anchor.json"),
  };
  await writeFile(files.proof, JSON.stringify(proof, null, 2));
  await writeFile(files.chain, `${JSON.stringify(status)}\n`);
  return files;
}

const verifyArgs = (files: { proof: string; manifest: string; anchor: string }, ...extra: string[]) => [
  "verify-proof",
  "--proof",
  files.proof,
  "--manifest",
  files.manifest,
  "--trust-anchor",
  files.anchor,
  ...extra,
];

describe("history-keys", () => {
  it("init writes private keys 0600, a manifest the trust anchor verifies, and refuses to overwrite", async () => {
    const keys = await keyFolder();
    for (const name of ["root-key.pem", "issuer-key.pem"]) expect((await stat(join(keys, name))).mode & 0o777).toBe(0o600);
    const manifest = await readJson(join(keys, "manifest.json"));
    expect(verifyIssuerManifest({ manifest, trustAnchor: await readJson(join(keys, "trust-anchor.json")) }).valid).toBe(true);
    expect(manifest.payload).toMatchObject({ issuer: "pay.example", sequence: 1, keys: [{ key_id: expect.stringMatching(/^issuer-[0-9a-f]{8}$/) }] });
    const again = await cli(["history-keys", "init", "--dir", keys]);
    expect(again.code).toBe(EXIT_USAGE);
    expect(again.stderr).toContain("already exists; refusing to overwrite it");
  });

  it("init prints all four proof variables and creates the artifact folder", async () => {
    dir = await mkdtemp(join(tmpdir(), "history-keys-"));
    const keys = join(dir, "keys");
    const init = await cli(["history-keys", "init", "--dir", keys, "--artifact-dir", join(dir, "exports")]);
    expect(init.code).toBe(0);
    const variables = init.stdout.split("\n").filter((line) => /^[A-Z_]+=/.test(line));
    expect(variables).toEqual([
      `HISTORY_ISSUER_PRIVATE_KEY_PATH=${join(keys, "issuer-key.pem")}`,
      `HISTORY_ISSUER_MANIFEST_PATH=${join(keys, "manifest.json")}`,
      `HISTORY_ISSUER_TRUST_ANCHOR_PATH=${join(keys, "trust-anchor.json")}`,
      `HISTORY_ARTIFACT_PATH=${join(dir, "exports")}`,
    ]);
    expect((await stat(join(dir, "exports"))).isDirectory()).toBe(true);
  });

  it("rotate adds a key and keeps the old one listed; old proofs still verify at issuance", async () => {
    const keys = await keyFolder();
    const now = Math.floor(Date.now() / 1000);
    const files = await issueProofFiles(keys, now);
    const before = (await readJson(join(keys, "manifest.json"))).payload.keys[0].key_id as string;
    const rotated = await cli(["history-keys", "rotate", "--dir", keys, "--json"]);
    expect(rotated.code).toBe(0);
    expect(JSON.parse(rotated.stdout)).toMatchObject({ previousKeyId: before, previousRevoked: false, sequence: 2 });
    const manifest = await readJson(join(keys, "manifest.json"));
    expect(manifest.payload.keys.map((key: { key_id: string }) => key.key_id)).toContain(before);
    expect(manifest.payload.keys).toHaveLength(2);
    expect(await stat(join(keys, `issuer-key.${before}.pem`))).toBeTruthy();
    expect((await cli(verifyArgs(files, "--status-chain", files.chain))).stdout).toMatch(/^VALID_NOW: /);
  });

  it("revoke sets revoked_at, after which an active proof of that key is REVOKED", async () => {
    const keys = await keyFolder();
    const now = Math.floor(Date.now() / 1000);
    const files = await issueProofFiles(keys, now);
    const keyId = (await readJson(join(keys, "manifest.json"))).payload.keys[0].key_id as string;
    const revokeAt = formatArtifactTime(now + 10);
    const revoked = await cli(["history-keys", "revoke", "--dir", keys, "--key-id", keyId, "--at", revokeAt]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`✓ issuer key ${keyId} revoked at ${revokeAt} (manifest sequence 2)\n`);
    expect((await readJson(join(keys, "manifest.json"))).payload.keys[0].revoked_at).toBe(revokeAt);
    const after = await cli(verifyArgs(files, "--status-chain", files.chain, "--at", String(now + 10)));
    expect(after).toMatchObject({ code: 1, stdout: expect.stringMatching(/^REVOKED: proof status is active but its signing key was revoked/) });
    expect((await cli(verifyArgs(files, "--status-chain", files.chain, "--at", String(now + 9)))).code).toBe(0);
    expect((await cli(["history-keys", "revoke", "--dir", keys, "--key-id", keyId])).code).toBe(EXIT_USAGE);
    expect((await cli(["history-keys", "revoke", "--dir", keys, "--key-id", "issuer-00000000"])).code).toBe(EXIT_USAGE);
  });

  it("refuses a key folder whose manifest the anchor does not trust", async () => {
    const keys = await keyFolder();
    const manifest = await readJson(join(keys, "manifest.json"));
    manifest.payload.sequence = 7;
    await writeFile(join(keys, "manifest.json"), JSON.stringify(manifest));
    const rotated = await cli(["history-keys", "rotate", "--dir", keys]);
    expect(rotated.code).toBe(EXIT_USAGE);
    expect(rotated.stderr).toContain("is not trusted: manifest signature does not verify against the trust anchor");
  });
});

describe("verify-proof", () => {
  it("prints the result and exits 0 only for a holding proof", async () => {
    const keys = await keyFolder();
    const files = await issueProofFiles(keys, Math.floor(Date.now() / 1000));
    expect(await cli(verifyArgs(files))).toMatchObject({ code: 0, stdout: expect.stringMatching(/^VALID_AT_ISSUANCE: /) });
    expect(await cli(verifyArgs(files, "--status-chain", files.chain, "--json"))).toMatchObject({
      code: 0,
      stdout: `${JSON.stringify({ result: "VALID_NOW", reason: "proof status is active and its signing key is not revoked" })}\n`,
    });
    expect((await cli(verifyArgs(files, "--at", String(Math.floor(Date.now() / 1000) + 2 * 86_400)))).stdout).toMatch(/^EXPIRED: /);
  });

  it("answers INVALID for a tampered proof and STATUS_UNKNOWN for a broken chain", async () => {
    const keys = await keyFolder();
    const files = await issueProofFiles(keys, Math.floor(Date.now() / 1000));
    const original = await readFile(files.proof, "utf8");
    await writeFile(files.proof, original.replace('"amount": "1000"', '"amount": "9000"'));
    expect(await cli(verifyArgs(files))).toMatchObject({ code: 1, stdout: "INVALID: proof signature does not verify\n" });
    await writeFile(files.proof, original);
    await writeFile(files.chain, "not json at all\n");
    expect(await cli(verifyArgs(files, "--status-chain", files.chain))).toMatchObject({ code: 1, stdout: expect.stringMatching(/^STATUS_UNKNOWN: /) });
  });

  it("treats an unreadable file as a usage mistake", async () => {
    const keys = await keyFolder();
    const files = await issueProofFiles(keys, Math.floor(Date.now() / 1000));
    const missing = await cli(verifyArgs({ ...files, proof: join(keys, "missing.json") }));
    expect(missing.code).toBe(EXIT_USAGE);
    expect(missing.stderr).toContain("--proof: cannot read");
    expect((await cli(verifyArgs(files, "--at", "2030-01-01T00:00:00"))).code).toBe(EXIT_USAGE);
  });
});
