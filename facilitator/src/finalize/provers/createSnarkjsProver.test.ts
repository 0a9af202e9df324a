/**
 * The snarkjs adapter on the local circuit (built once and cached by anvil-fixtures): a true statement is
 * proved on a worker thread while the event loop keeps ticking, and the proof verifies under the circuit's
 * key; each wrong witness only a real circuit can refuse is `prover_witness_rejected` without a proof being
 * attempted; a batch, a payment of the other version, a timeout and a closed adapter each fail with their
 * own reason. Files that cannot serve are refused by name before any thread takes work.
 */
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { buildSingleTeleportCircuit, type SingleTeleportCircuit } from "@svc/anvil-fixtures";
import { decodeGroth16Proof, openBurnAddress, zerc20Protocol } from "@svc/scheme";
import * as snarkjs from "snarkjs";
import { hexToBigInt } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSnarkjsProver, type SnarkjsProver } from "./createSnarkjsProver.js";
import { ProverCircuitError, ProverError, ProverTimeoutError, ProverUnsupportedError, ProverWitnessRejectedError } from "./errors.js";
import { PROVER_FAILURE_REASON } from "./proverFailureReasons.js";
import { SELF_TEST_BURNS, SELF_TEST_RECIPIENT_HASH } from "./snarkjsSelfTest.js";
import { buildTrueWithdrawProofInputs, wrongWitnesses } from "./testing/buildTrueWithdrawProofInputs.js";
import { secretSpellings } from "./testing/buildWithdrawProofInputs.js";
import { pollUntil } from "./testing/pollUntil.js";

let v1: SingleTeleportCircuit;
let v2: SingleTeleportCircuit;
let prover: SnarkjsProver;
let dir: string;
const statement = buildTrueWithdrawProofInputs();

beforeAll(async () => {
  [v1, v2] = await Promise.all([buildSingleTeleportCircuit({ protocol: "zerc20-v1" }), buildSingleTeleportCircuit({ protocol: "zerc20-v2" })]);
  prover = await createSnarkjsProver({ wasm: v2.wasmPath, zkey: v2.zkeyPath, protocol: "zerc20-v2", timeoutMs: 120_000, concurrency: 1 });
  dir = await mkdtemp(join(tmpdir(), "svc-snarkjs-prover-"));
}, 600_000);

afterAll(async () => {
  await prover?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The prover error an attempt rejects with (failing the test when it resolves), with no spelling of the secret anywhere in it. */
async function failureOf(attempt: Promise<unknown>, secret: bigint = statement.secret): Promise<ProverError> {
  const outcome = await attempt.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ProverError)) throw new Error(`expected a ProverError, got ${inspect(outcome)}`);
  const everything = `${inspect(outcome, { depth: 10 })}\n${outcome.message}`;
  for (const spelling of secretSpellings(secret)) expect(everything).not.toContain(spelling);
  return outcome;
}

describe("createSnarkjsProver: proving", () => {
  it("proves a true statement on a worker thread, the event loop ticking throughout, and the key verifies it", async () => {
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const proof = await prover.proveSingle(statement).finally(() => clearInterval(ticker));
    const took = performance.now() - started;

    const { a, b, c, publicInputs } = decodeGroth16Proof(proof);
    expect(publicInputs).toEqual([statement.root, hexToBigInt(statement.recipientHash), statement.value]);
    // Back into snarkjs's layout (G2 coordinates swapped back) for its own verifier.
    const snarkjsProof = {
      pi_a: [a[0].toString(), a[1].toString(), "1"],
      pi_b: [
        [b[0][1].toString(), b[0][0].toString()],
        [b[1][1].toString(), b[1][0].toString()],
        ["1", "0"],
      ],
      pi_c: [c[0].toString(), c[1].toString(), "1"],
      protocol: "groth16",
      curve: "bn128",
    };
    expect(await snarkjs.groth16.verify(v2.verificationKey, publicInputs.map(String), snarkjsProof)).toBe(true);
    // A proof takes seconds of CPU; on the main thread the loop would have stalled for all of it.
    expect(took).toBeGreaterThan(500);
    expect(longestGap).toBeLessThan(Math.min(1000, took / 2));
    expect(prover.threads()).toBe(1);
  });

  it.each(wrongWitnesses(statement))("prover_witness_rejected: %s, with the failed constraint named and no proof attempted", async (_what, wrong) => {
    const started = performance.now();
    const error = await failureOf(prover.proveSingle(wrong), wrong.secret);
    expect(error).toBeInstanceOf(ProverWitnessRejectedError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.witnessRejected, adapter: "snarkjs", circuit: "single" });
    expect((error as ProverWitnessRejectedError).constraint).toMatch(/^[A-Za-z0-9]+ line \d+$/);
    // The witness calculator stops at the failed constraint: a fraction of a proof's time.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("pins the message of a refused witness", async () => {
    const [, wrong] = wrongWitnesses(statement)[0] ?? [];
    if (wrong === undefined) throw new Error("no wrong witness");
    const error = await failureOf(prover.proveSingle(wrong));
    expect(error.message).toMatch(
      /^The circuit refuses the witness of this single proof \(a constraint of SingleTeleport line \d+ fails\): no proof of it exists\.$/,
    );
  });

  it("prover_unsupported: a batch (no batch path given), and a payment of the other version", async () => {
    const batch = await failureOf(prover.proveBatch(statement));
    expect(batch).toBeInstanceOf(ProverUnsupportedError);
    expect(batch).toMatchObject({ reason: PROVER_FAILURE_REASON.unsupported, circuit: "batch" });
    expect(batch.message).toMatchInlineSnapshot(
      `"The snarkjs prover makes no batch proof: its circuit proves one transfer; a burn address that received several needs the batch prover."`,
    );
    const other = await failureOf(prover.proveSingle({ ...statement, protocol: "zerc20-v1" }));
    expect(other).toMatchObject({ name: "ProverUnsupportedError", reason: "prover_unsupported", circuit: "single" });
  });

  it("hands a batch to the batch path it was given and checks that answer like its own", async () => {
    const withBatch = await createSnarkjsProver({
      wasm: v2.wasmPath,
      zkey: v2.zkeyPath,
      protocol: "zerc20-v2",
      timeoutMs: 120_000,
      concurrency: 1,
      batch: async () => `0x${"00".repeat(1088)}`,
    });
    try {
      const error = await failureOf(withBatch.proveBatch(statement));
      expect(error).toMatchObject({ name: "ProverOutputInvalidError", reason: "prover_output_invalid", circuit: "batch" });
    } finally {
      await withBatch.close();
    }
  });
});

describe("createSnarkjsProver: limits and closing", () => {
  it("prover_timeout: a proof past the bound stops its thread; a fresh thread takes the next job", async () => {
    // A proof takes about 3 s of CPU here (bench section on real proofs): 1.5 s stops it for sure, and leaves
    // the fresh thread time to start and refuse a witness on a loaded machine.
    const slow = await createSnarkjsProver({ wasm: v2.wasmPath, zkey: v2.zkeyPath, protocol: "zerc20-v2", timeoutMs: 1500, concurrency: 1 });
    try {
      const error = await failureOf(slow.proveSingle(statement));
      expect(error).toBeInstanceOf(ProverTimeoutError);
      expect(error.message).toMatchInlineSnapshot(`"The snarkjs prover took longer than 1500 ms for a single proof and its thread was stopped."`);
      expect(slow.threads()).toBe(0);
      const [, wrong] = wrongWitnesses(statement)[0] ?? [];
      if (wrong === undefined) throw new Error("no wrong witness");
      expect(await failureOf(slow.proveSingle(wrong))).toBeInstanceOf(ProverWitnessRejectedError);
      expect(slow.threads()).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it("close() stops a running proof with prover_unavailable and refuses later ones", async () => {
    const closing = await createSnarkjsProver({ wasm: v2.wasmPath, zkey: v2.zkeyPath, protocol: "zerc20-v2", timeoutMs: 120_000, concurrency: 1 });
    const running = failureOf(closing.proveSingle(statement));
    const queued = failureOf(closing.proveSingle(statement));
    await pollUntil(() => closing.proving() === 1, { what: "the first proof running on its thread" });
    await closing.close();
    expect(await running).toMatchObject({ name: "ProverUnavailableError", reason: "prover_unavailable" });
    expect(await queued).toMatchObject({ name: "ProverUnavailableError", reason: "prover_unavailable" });
    expect(closing.threads()).toBe(0);
    expect((await failureOf(closing.proveSingle(statement))).message).toMatchInlineSnapshot(`"The prover adapter is closed; no single proof was made."`);
  });
});

describe("createSnarkjsProver: the circuit files", () => {
  /** The error creating an adapter on these files throws (failing the test when it does not). */
  async function refusal(wasm: string, zkey: string, protocol: "zerc20-v1" | "zerc20-v2" = "zerc20-v2"): Promise<ProverCircuitError> {
    const outcome = await createSnarkjsProver({ wasm, zkey, protocol, timeoutMs: 120_000, concurrency: 1 }).then(
      async (created) => {
        await created.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    if (!(outcome instanceof ProverCircuitError)) throw new Error(`expected a ProverCircuitError, got ${inspect(outcome)}`);
    return outcome;
  }

  it("pins the self-test burns: each secret opens its burn address under its version", () => {
    for (const [version, { secret, burnAddress }] of Object.entries(SELF_TEST_BURNS)) {
      const protocol = zerc20Protocol(version === "zerc20-v1" ? "zerc20-v1" : "zerc20-v2");
      expect(openBurnAddress(protocol, SELF_TEST_RECIPIENT_HASH, secret)).toBe(burnAddress);
    }
  });

  it("refuses a missing file, naming the key and the system error", async () => {
    const error = await refusal(join(dir, "missing.wasm"), v2.zkeyPath);
    expect(error).toMatchObject({ key: "prover.wasm" });
    expect(error.shortMessage).toBe(`prover.wasm (${join(dir, "missing.wasm")}) cannot be read (ENOENT).`);
    expect(await refusal(v2.wasmPath, dir)).toMatchObject({ key: "prover.zkey", shortMessage: expect.stringContaining("cannot be read (EISDIR)") });
  });

  it("refuses the files swapped, and a key that is not a snarkjs key", async () => {
    expect((await refusal(v2.zkeyPath, v2.wasmPath)).shortMessage).toMatch(/^prover\.wasm \(.*\) is not WebAssembly: /);
    const notAKey = join(dir, "not-a-key.zkey");
    await writeFile(notAKey, "zkey but nothing else");
    expect(await refusal(v2.wasmPath, notAKey)).toMatchObject({
      key: "prover.zkey",
      shortMessage: expect.stringContaining("is not a snarkjs proving key (.zkey)"),
    });
  });

  it("refuses a witness calculator of the other version: it refuses the self-test statement", async () => {
    const error = await refusal(v1.wasmPath, v2.zkeyPath);
    expect(error.key).toBe("prover.wasm");
    expect(error.shortMessage).toMatch(
      /does not prove the zerc20-v2 single-teleport statement: its witness calculator refuses a true one \(a constraint of \w+ line \d+ fails\)\.$/,
    );
  });

  it("refuses a pair of different circuits", async () => {
    // Both files of v1 prove v1; the v1 calculator with the v2 key is a pair of two circuits.
    const mixed = join(dir, "v1.wasm");
    await copyFile(v1.wasmPath, mixed);
    const error = await refusal(mixed, v2.zkeyPath, "zerc20-v1");
    expect(error).toMatchObject({ key: "prover.wasm and prover.zkey" });
    expect(error.shortMessage).toMatch(/^prover\.wasm and prover\.zkey are of different circuits: a witness of \d+ signals, a proving key for \d+\.$/);
  });
});
