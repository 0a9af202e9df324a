/**
 * Test builders for payment history: a temp folder with a complete history environment (and, unless turned
 * off, a complete proof configuration made by the operator tooling), the two participant wallets, and a
 * payment builder for the recorder. Test-only; nothing in the daemon imports it.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHistoryClient, type HistorySubject } from "@svc/scheme";
import type { Hex } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";

import { createIssuerKeySet, type IssuerKeySet } from "../proofs/createIssuerKeySet.js";
import type { HistoryPayment } from "../record/historyRecorder.js";

/** The bindings the test environment configures. */
export const TEST_BINDINGS = {
  payer: { tenantId: "tenant-payer", actorId: "agent-1" },
  provider: { tenantId: "tenant-provider", actorId: "shop-1" },
} as const;

/** The login domain the test environment configures. */
export const TEST_LOGIN_DOMAIN = "facilitator.test";

/** A temp folder with history (and proof) files, the environment naming them, and the wallets. */
export type HistoryTestEnvironment = {
  dir: string;
  env: Record<string, string>;
  wallets: Record<HistorySubject, PrivateKeyAccount>;
  keys: IssuerKeySet | undefined;
  files: { history: string; manifest: string; trustAnchor: string; issuerKey: string; artifacts: string };
  close: () => Promise<void>;
};

/** Creates the environment; `proofs: false` leaves the proof group out, `env` overrides or adds variables. */
export async function createHistoryTestEnvironment(options: { proofs?: boolean; env?: Record<string, string> } = {}): Promise<HistoryTestEnvironment> {
  const dir = await mkdtemp(join(tmpdir(), "history-test-"));
  const wallets = { payer: privateKeyToAccount(generatePrivateKey()), provider: privateKeyToAccount(generatePrivateKey()) };
  const files = {
    history: join(dir, "history.jsonl"),
    manifest: join(dir, "manifest.json"),
    trustAnchor: join(dir, "trust-anchor.json"),
    issuerKey: join(dir, "issuer-key.pem"),
    artifacts: join(dir, "artifacts"),
  };
  let keys: IssuerKeySet | undefined;
  const proofEnv: Record<string, string> = {};
  if (options.proofs !== false) {
    keys = createIssuerKeySet({ issuer: "facilitator.test", nowSeconds: Math.floor(Date.now() / 1000) - 86_400 });
    await writeFile(files.issuerKey, String(keys.issuer.privateKey.export({ format: "pem", type: "pkcs8" })), { mode: 0o600 });
    await writeFile(files.manifest, JSON.stringify(keys.manifest, null, 2));
    await writeFile(files.trustAnchor, JSON.stringify(keys.trustAnchor, null, 2));
    Object.assign(proofEnv, {
      HISTORY_ISSUER_PRIVATE_KEY_PATH: files.issuerKey,
      HISTORY_ISSUER_MANIFEST_PATH: files.manifest,
      HISTORY_ISSUER_TRUST_ANCHOR_PATH: files.trustAnchor,
      HISTORY_ARTIFACT_PATH: files.artifacts,
    });
  }
  const env = {
    PAYMENT_HISTORY_PATH: files.history,
    HISTORY_IDENTITY_SECRET: "history-test-identity-secret-0123456789",
    HISTORY_PAYER_TENANT: TEST_BINDINGS.payer.tenantId,
    HISTORY_PAYER_ACTOR: TEST_BINDINGS.payer.actorId,
    HISTORY_PROVIDER_TENANT: TEST_BINDINGS.provider.tenantId,
    HISTORY_PROVIDER_ACTOR: TEST_BINDINGS.provider.actorId,
    HISTORY_PAYER_ADDRESS: wallets.payer.address,
    HISTORY_PROVIDER_ADDRESS: wallets.provider.address,
    HISTORY_LOGIN_DOMAIN: TEST_LOGIN_DOMAIN,
    ...proofEnv,
    ...options.env,
  };
  return { dir, env, wallets, keys, files, close: () => rm(dir, { recursive: true, force: true }) };
}

/** A payment as settlement hands it to the recorder, with overrides. */
export function buildHistoryPayment(overrides: Partial<HistoryPayment> = {}): HistoryPayment {
  return {
    challengeNonce: `0x${"c1".repeat(32)}`,
    path: "permit",
    network: "eip155:31337",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    payTo: "0x1111111111111111111111111111111111111111",
    amount: 1000n,
    payer: "0x2222222222222222222222222222222222222222",
    ...overrides,
  };
}

/** A recipient (`settlement.treasury`) that must never reach the payer. */
export const TEST_RECIPIENT = "0x9999999999999999999999999999999999999999";

/** A mint transaction hash for finalized test payments. */
export const TEST_MINT_TX: Hex = `0x${"3e".repeat(32)}`;

/** Logs in through the real HTTP API with the agent-facing client and returns the identity token. */
export async function loginAs(url: string, subject: HistorySubject, wallet: PrivateKeyAccount): Promise<string> {
  const client = createHistoryClient({ facilitatorUrl: url });
  const { token } = await client.login({ subject, signMessage: (message) => wallet.signMessage({ message }), expectedDomain: TEST_LOGIN_DOMAIN });
  return token;
}
