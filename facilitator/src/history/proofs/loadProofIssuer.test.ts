import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { signArtifact } from "@svc/scheme";
import { afterEach, describe, expect, it } from "vitest";

import { ProofConfigurationError } from "../errors.js";
import { generateNamedKey } from "./createIssuerKeySet.js";
import { loadProofIssuer } from "./loadProofIssuer.js";
import { parseHistoryEnvironment, type ProofSettings } from "../parseHistoryEnvironment.js";
import { createHistoryTestEnvironment, type HistoryTestEnvironment } from "../testing/historyTestEnvironment.js";
import { updateIssuerManifest } from "./updateIssuerManifest.js";

let environment: HistoryTestEnvironment | undefined;

afterEach(async () => {
  await environment?.close();
  environment = undefined;
});

async function settings(env: Record<string, string> = {}): Promise<{ settings: ProofSettings; environment: HistoryTestEnvironment }> {
  environment = await createHistoryTestEnvironment({ env });
  const parsed = parseHistoryEnvironment(environment.env);
  if (parsed.proofs === undefined) throw new TypeError("no proof settings");
  return { settings: parsed.proofs, environment };
}

const now = () => Math.floor(Date.now() / 1000);

async function refusal(run: Promise<unknown>): Promise<ProofConfigurationError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProofConfigurationError);
  return error as ProofConfigurationError;
}

describe("loadProofIssuer", () => {
  it("loads a trusted manifest and finds the issuer key by its public key", async () => {
    const { settings: proof, environment: env } = await settings();
    const issuer = await loadProofIssuer(proof, now());
    expect(issuer.issuerId).toBe("facilitator.test");
    expect(issuer.signer.keyId).toBe(env.keys?.issuer.keyId);
  });

  it("refuses a manifest the trust anchor did not sign", async () => {
    const { settings: proof, environment: env } = await settings();
    const manifest = env.keys?.manifest;
    if (!manifest) throw new TypeError("no keys");
    await writeFile(env.files.manifest, JSON.stringify(signArtifact(manifest.payload, generateNamedKey("root"))));
    expect((await refusal(loadProofIssuer(proof, now()))).shortMessage).toMatch(/^HISTORY_ISSUER_MANIFEST_PATH: the manifest is not trusted/);
  });

  it("refuses an issuer key that is not in the manifest, is revoked, or is not Ed25519", async () => {
    const { settings: proof, environment: env } = await settings();
    const keys = env.keys;
    if (!keys) throw new TypeError("no keys");
    await writeFile(env.files.issuerKey, String(generateNamedKey("issuer").privateKey.export({ format: "pem", type: "pkcs8" })));
    expect((await refusal(loadProofIssuer(proof, now()))).variable).toBe("HISTORY_ISSUER_PRIVATE_KEY_PATH");

    await writeFile(env.files.issuerKey, String(keys.issuer.privateKey.export({ format: "pem", type: "pkcs8" })));
    const revoked = updateIssuerManifest({
      manifest: keys.manifest,
      root: keys.root,
      nowSeconds: now() - 10,
      change: { kind: "revoke", keyId: keys.issuer.keyId },
    });
    await writeFile(env.files.manifest, JSON.stringify(revoked.manifest));
    expect((await refusal(loadProofIssuer(proof, now()))).shortMessage).toMatch(/is revoked or not yet valid/);

    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    await writeFile(env.files.issuerKey, String(privateKey.export({ format: "pem", type: "pkcs8" })));
    expect((await refusal(loadProofIssuer(proof, now()))).shortMessage).toBe("HISTORY_ISSUER_PRIVATE_KEY_PATH: the issuer key must be Ed25519.");
  });

  it("checks HISTORY_ISSUER_ID and HISTORY_ISSUER_KEY_ID against the manifest", async () => {
    const { settings: proof } = await settings({ HISTORY_ISSUER_ID: "someone-else" });
    expect((await refusal(loadProofIssuer(proof, now()))).variable).toBe("HISTORY_ISSUER_ID");
    await environment?.close();
    const second = await settings({ HISTORY_ISSUER_KEY_ID: "issuer-00000000" });
    expect((await refusal(loadProofIssuer(second.settings, now()))).variable).toBe("HISTORY_ISSUER_KEY_ID");
  });
});
