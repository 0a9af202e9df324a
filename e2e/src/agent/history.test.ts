/**
 * `history`, `proof` and `proof verify` as real processes against a real facilitator with payment history and
 * proofs configured (issuer keys made by `facilitator history-keys init`), on the local anvil stack: one
 * payment, then the payer lists it, obtains a proof that verifies offline, and a tampered copy does not.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

import { EXIT_DECLINED, EXIT_FAILED, EXIT_OK, EXIT_USAGE, Ledger, runAgent, runCliInProcess } from "@svc/agent/testing";
import { FACILITATOR_CLI, startWorld, type World } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const LOGIN_DOMAIN = "agent-history.test";

let keysDir: string;
let world: World;
let paymentId: string;
let localId: string;

beforeAll(async () => {
  keysDir = await mkdtemp(join(tmpdir(), "svc-agent-history-"));
  await promisify(execFile)(process.execPath, [FACILITATOR_CLI, "history-keys", "init", "--dir", join(keysDir, "keys"), "--issuer", "agent-history.test"]);
  world = await startWorld({
    dirPrefix: "svc-agent-world-",
    facilitatorEnv: (stack) => ({
      PAYMENT_HISTORY_PATH: join(keysDir, "history.jsonl"),
      HISTORY_IDENTITY_SECRET: "agent-history-test-identity-secret-0123456789",
      HISTORY_PAYER_TENANT: "tenant-payer",
      HISTORY_PAYER_ACTOR: "agent-1",
      HISTORY_PROVIDER_TENANT: "tenant-provider",
      HISTORY_PROVIDER_ACTOR: "shop-1",
      HISTORY_PAYER_ADDRESS: stack.deployment.accounts.payer.address,
      HISTORY_LOGIN_DOMAIN: LOGIN_DOMAIN,
      HISTORY_ISSUER_PRIVATE_KEY_PATH: join(keysDir, "keys", "issuer-key.pem"),
      HISTORY_ISSUER_MANIFEST_PATH: join(keysDir, "keys", "manifest.json"),
      HISTORY_ISSUER_TRUST_ANCHOR_PATH: join(keysDir, "keys", "trust-anchor.json"),
      HISTORY_ARTIFACT_PATH: join(keysDir, "artifacts"),
    }),
  });
  const paid = await runAgent(["pay", "--json", world.weatherUrl], env());
  expect(paid.code).toBe(EXIT_OK);
  const { id } = JSON.parse(paid.stdout) as { id: string };
  localId = id;
  paymentId = (await new Ledger(join(world.dir, "history")).get(id)).challengeNonce.toLowerCase();
}, 120_000);

afterAll(async () => {
  await world?.close();
  await rm(keysDir, { recursive: true, force: true });
});

/** The agent's environment: payer key, facilitator URL and login domain, one state folder. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return world.agentEnv("history", { SVC_PAYER_PK: world.payerKey, SVC_FACILITATOR_URL: world.facilitator.url, SVC_HISTORY_DOMAIN: LOGIN_DOMAIN, ...extra });
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("history", () => {
  it("logs in with the payer wallet and lists the payment just made", async () => {
    const run = await runAgent(["history", "--json"], env());
    expect(run.code).toBe(EXIT_OK);
    const payments = jsonLines(run.stdout);
    expect(payments).toContainEqual(
      expect.objectContaining({ type: "payment", id: localId, paymentId, amount: "1010", path: "permit", network: "eip155:31337" }),
    );
    const text = await runAgent(["history"], env());
    expect(text.code).toBe(EXIT_OK);
    // One payment, one id: the one `pay` printed leads the line, the facilitator's closes it; amounts in token units.
    expect(text.stdout).toMatch(new RegExp(`^${localId}  \\S+ +0\\.00000000000000101 zFIX  eip155:31337  permit .*  ${paymentId}$`, "m"));
  });

  it("refuses a facilitator host outside SVC_ALLOWED_HOSTS before anything is sent", async () => {
    const run = await runCliInProcess(["history", "--json"], env({ SVC_FACILITATOR_URL: "http://facilitator.invalid:4032" }));
    expect(run.code).toBe(EXIT_DECLINED);
    expect(jsonLines(run.stdout)).toEqual([expect.objectContaining({ result: "error", error: "HostNotAllowedError" })]);
  });

  it("needs SVC_FACILITATOR_URL", async () => {
    const run = await runCliInProcess(["history"], env({ SVC_FACILITATOR_URL: "" }));
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toContain("SVC_FACILITATOR_URL is not set");
  });
});

describe("proof", () => {
  it("is a usage mistake (2) for a payment id the facilitator does not have for this payer", async () => {
    const run = await runCliInProcess(
      ["proof", `0x${"7e".repeat(32)}`, "--out", join(keysDir, "unknown"), "--trust-anchor", join(keysDir, "keys", "trust-anchor.json")],
      env(),
    );
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toContain(`The facilitator has no payment 0x${"7e".repeat(32)} for this payer`);
  });

  it("issues a proof, saves the three artifacts and verifies them offline; a tampered byte is INVALID", async () => {
    const out = join(keysDir, "proof-out");
    const trustAnchor = join(keysDir, "keys", "trust-anchor.json");
    const run = await runAgent(["proof", localId, "--out", out, "--trust-anchor", trustAnchor, "--json"], env());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(EXIT_OK);
    const [issued] = jsonLines(run.stdout);
    expect(issued).toMatchObject({ result: "VALID_NOW", paymentId });
    const proof = JSON.parse(await readFile(join(out, "proof.json"), "utf8")) as { payload: { payment: { payment_id: string } } };
    expect(proof.payload.payment.payment_id).toBe(paymentId);

    // Offline, with no facilitator and no SVC_* variable at all.
    const files = ["--proof", join(out, "proof.json"), "--manifest", join(out, "manifest.json"), "--trust-anchor", trustAnchor];
    const offline = await runAgent(["proof", "verify", ...files, "--status-chain", join(out, "status-chain.jsonl"), "--json"], {
      PATH: process.env.PATH ?? "",
    });
    expect({ code: offline.code, ...jsonLines(offline.stdout)[0] }).toMatchObject({ code: EXIT_OK, result: "VALID_NOW" });
    const atIssuance = await runAgent(["proof", "verify", ...files], { PATH: process.env.PATH ?? "" });
    expect(atIssuance.code).toBe(EXIT_OK);
    expect(atIssuance.stdout).toMatch(/^VALID_AT_ISSUANCE: /);

    const tampered = join(keysDir, "tampered-proof.json");
    const text = await readFile(join(out, "proof.json"), "utf8");
    await writeFile(tampered, text.replace(/"amount": "1010"/, '"amount": "1011"'));
    expect(await readFile(tampered, "utf8")).not.toBe(text);
    const invalid = await runAgent(["proof", "verify", "--proof", tampered, ...files.slice(2), "--json"], { PATH: process.env.PATH ?? "" });
    expect(invalid.code).toBe(EXIT_FAILED);
    expect(jsonLines(invalid.stdout)[0]).toMatchObject({ result: "INVALID", reason: "proof signature does not verify" });
  });

  it("rejects a malformed --at as a usage mistake", async () => {
    const run = await runCliInProcess(["proof", "verify", "--proof", "p", "--manifest", "m", "--trust-anchor", "t", "--at", "tomorrow"], {});
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toContain("--at must be an RFC 3339 time");
  });
});
