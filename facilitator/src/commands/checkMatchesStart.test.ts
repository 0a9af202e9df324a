/**
 * `check` ⇒ `start`: for every configuration `start` refuses because of the providers, the history group,
 * the proof group, the Poseidon variables or the prover's circuit files, `check` reports exactly one problem, on the matching probe, with
 * `start`'s own message where the two share the rule; and where `check` passes those probes, `start` starts.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidPoseidonPathError } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { BaseError } from "../errors/base.js";
import { IncompleteProofConfigurationError, InvalidHistoryVariableError, PaymentHistoryFileError, ProofConfigurationError } from "../history/errors.js";
import { ProviderCredentialsRequiredError, SeparateMinterRequiredError } from "../config/errors.js";
import { ProverCircuitError } from "../finalize/provers/errors.js";
import { startDaemon } from "../daemon/startDaemon.js";
import { startTestStack, writeConfigVariant, type ConfigPatch, type TestStack } from "../testing/localFacilitator.js";
import { countProblems, runCheck, type CheckFinding } from "./check.js";
import { runHistoryKeysInit } from "./history/historyKeys/init.js";

let stack: TestStack;
let dir: string;
let proofEnv: Record<string, string>;
let foreignAnchor: string;

beforeAll(async () => {
  stack = await startTestStack();
  dir = await mkdtemp(join(tmpdir(), "check-start-"));
  proofEnv = (await runHistoryKeysInit({ dir: join(dir, "keys"), issuer: "pay.example" })).environment;
  foreignAnchor = (await runHistoryKeysInit({ dir: join(dir, "other-keys"), issuer: "pay.example" })).files.trustAnchor;
});

afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const historyEnv = (name: string) => ({
  PAYMENT_HISTORY_PATH: join(dir, `${name}.history.jsonl`),
  HISTORY_IDENTITY_SECRET: "history-identity-secret-0123456789abcdef",
  HISTORY_PAYER_TENANT: "payers",
  HISTORY_PAYER_ACTOR: "payer-1",
  HISTORY_PROVIDER_TENANT: "providers",
  HISTORY_PROVIDER_ACTOR: "provider-1",
});

const NON_LOCAL_KEYS = { SVC_TREASURY_PK: `0x${"5a".repeat(32)}`, SVC_RELAYER_PK: `0x${"6b".repeat(32)}`, SVC_MINTER_PK: `0x${"7c".repeat(32)}` };

type Case = {
  name: string;
  patch?: ConfigPatch;
  env: (name: string) => Record<string, string>;
  probe: CheckFinding["probe"];
  error: new (...args: never[]) => BaseError;
  /** Whether `check` prints `start`'s own message (the rule is shared code). */
  sameMessage: boolean;
  before?: (name: string) => Promise<void>;
};

const CASES: Case[] = [
  {
    name: "invalid-poseidon-path",
    env: () => ({ SVC_POSEIDON_PATH: "warp-drive" }),
    probe: "poseidon",
    error: InvalidPoseidonPathError,
    sameMessage: true,
  },
  {
    name: "partial-proofs",
    env: () => ({ ...proofEnv, HISTORY_ARTIFACT_PATH: "" }),
    probe: "proofs",
    error: IncompleteProofConfigurationError,
    sameMessage: true,
  },
  {
    name: "short-secret",
    env: (name) => ({ ...historyEnv(name), HISTORY_IDENTITY_SECRET: "too-short" }),
    probe: "history",
    error: InvalidHistoryVariableError,
    sameMessage: true,
  },
  {
    name: "foreign-anchor",
    env: (name) => ({ ...historyEnv(name), ...proofEnv, HISTORY_ISSUER_TRUST_ANCHOR_PATH: foreignAnchor }),
    probe: "proofs",
    error: ProofConfigurationError,
    sameMessage: true,
  },
  {
    name: "missing-issuer-key",
    env: (name) => ({ ...historyEnv(name), ...proofEnv, HISTORY_ISSUER_PRIVATE_KEY_PATH: join(dir, "no-such-key.pem") }),
    probe: "proofs",
    error: ProofConfigurationError,
    sameMessage: true,
  },
  {
    name: "damaged-history",
    env: (name) => historyEnv(name),
    before: (name) => writeFile(join(dir, `${name}.history.jsonl`), '{"v":1,"type":"nonsense"}\n'),
    probe: "history",
    error: PaymentHistoryFileError,
    sameMessage: false,
  },
  {
    name: "missing-proving-key",
    patch: { prover: { kind: "snarkjs", wasm: "no-such-circuit.wasm", zkey: "no-such-circuit.zkey" } },
    env: () => ({}),
    probe: "prover",
    error: ProverCircuitError,
    sameMessage: true,
  },
  {
    name: "testnet-without-providers",
    patch: { profile: "testnet", fee: null },
    env: () => NON_LOCAL_KEYS,
    probe: "providers",
    error: ProviderCredentialsRequiredError,
    sameMessage: true,
  },
  {
    name: "testnet-without-minter",
    patch: { profile: "testnet", fee: null, providers: { shop: { key_sha256: "0f".repeat(32) } } },
    env: () => ({ SVC_TREASURY_PK: NON_LOCAL_KEYS.SVC_TREASURY_PK, SVC_RELAYER_PK: NON_LOCAL_KEYS.SVC_RELAYER_PK }),
    probe: "keys",
    error: SeparateMinterRequiredError,
    sameMessage: true,
  },
];

async function configFor(name: string, patch: ConfigPatch = {}): Promise<string> {
  return writeConfigVariant(stack, name, {
    ...patch,
    settlement: { journal: `${name}.journal.jsonl` },
    daemon: { burn_address_pool_size: 1 },
  });
}

describe("check reports what start refuses", () => {
  it.each(CASES)("$name: one problem on $probe, and start refuses it", async ({ name, patch, env, probe, error, sameMessage, before }) => {
    await before?.(name);
    const configPath = await configFor(name, patch);
    const environment = { ...stack.env, ...env(name) };
    const findings = await runCheck({ configPath, env: environment, timeoutMs: 3_000 });
    const problems = findings.filter((finding) => finding.status === "fail");
    expect(problems.map((finding) => finding.probe)).toEqual([probe]);

    const refused = await startDaemon({ configPath, env: environment, write: () => undefined }).then(
      async (daemon) => {
        await daemon.stop();
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expect(refused).toBeInstanceOf(error);
    if (sameMessage) expect(problems[0]?.message).toBe((refused as BaseError).shortMessage);
  });

  it("passes history and proofs that start accepts, and start starts", async () => {
    const configPath = await configFor("valid-history");
    const environment = { ...stack.env, ...historyEnv("valid-history"), ...proofEnv };
    const findings = await runCheck({ configPath, env: environment, timeoutMs: 3_000 });
    expect(countProblems(findings)).toBe(0);
    const history = findings.filter((finding) => finding.probe === "history" || finding.probe === "proofs");
    expect(history.map((finding) => [finding.probe, finding.status])).toEqual([
      ["history", "ok"],
      ["proofs", "ok"],
    ]);
    expect(history[1]?.message).toMatch(/^issuer pay\.example, key issuer-[0-9a-f]{8}: the manifest verifies against the trust anchor/);
    const lines: string[] = [];
    const daemon = await startDaemon({ configPath, env: environment, write: (line) => lines.push(line) });
    try {
      expect(lines.some((line) => line.includes('"event":"history_enabled"') && line.includes('"proofs":true'))).toBe(true);
    } finally {
      await daemon.stop();
    }
  });
});
