import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { decodeDeciderWithdrawProof, decodeGroth16Proof, FIXTURE_PROVER_PRIVATE_KEY, recoverFixtureSigner } from "@svc/scheme";
import { hexToBigInt, size } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { buildSingleTeleportCircuit } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCommandProver, INHERITED_ENV_VARIABLES, type CreateCommandProverParameters } from "./createCommandProver.js";
import { ProverError, ProverFailedError, ProverOutputInvalidError, ProverTimeoutError, ProverUnavailableError, ProverWitnessRejectedError } from "./errors.js";
import { PROVER_FAILURE_REASON } from "./proverFailureReasons.js";
import { buildTrueWithdrawProofInputs, wrongWitnesses } from "./testing/buildTrueWithdrawProofInputs.js";
import {
  buildBatchWithdrawProofInputs,
  buildWithdrawProofInputs,
  FIXTURE_PROVER_PROGRAM,
  SNARKJS_PROVER_PROGRAM,
  secretSpellings,
} from "./testing/buildWithdrawProofInputs.js";
import { isAlive, pollUntil } from "./testing/pollUntil.js";

const single = buildWithdrawProofInputs();
const batch = buildBatchWithdrawProofInputs();
// Generous: a run starts Node and loads the scheme; only the timeout tests use a short bound.
const RUN_TIMEOUT_MS = 30_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-command-prover-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function proverWith(flags: readonly string[], overrides: Partial<CreateCommandProverParameters> = {}) {
  return createCommandProver({
    command: [process.execPath, FIXTURE_PROVER_PROGRAM, ...flags],
    chainId: 31337,
    timeoutMs: RUN_TIMEOUT_MS,
    concurrency: 1,
    ...overrides,
  });
}

/** The error a proof attempt rejects with; fails the test when it resolves instead. */
async function failureOf(attempt: Promise<unknown>, secret?: bigint): Promise<ProverError> {
  const outcome = await attempt.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ProverError)) throw new Error(`expected a ProverError, got ${inspect(outcome)}`);
  // Whatever the failure, nothing of the witness's secret reaches its text, its fields or its causes.
  const everything = `${inspect(outcome, { depth: 10 })}\n${outcome.message}\n${outcome.details}`;
  for (const spelling of secretSpellings(secret)) expect(everything).not.toContain(spelling);
  return outcome;
}

describe("createCommandProver: a program that proves", () => {
  it("writes the witness to the program and returns its single proof, checked against the witness", async () => {
    const proof = await proverWith([]).proveSingle(single);
    expect(size(proof)).toBe(352);
    const { a, b, publicInputs } = decodeGroth16Proof(proof);
    expect(publicInputs).toEqual([single.root, hexToBigInt(single.recipientHash), single.value]);
    // The program signed what it read from stdin: the witness reached it whole.
    expect(await recoverFixtureSigner("withdraw_single", 31337n, publicInputs, [a[0], a[1], b[0][0]])).toBe(privateKeyToAddress(FIXTURE_PROVER_PRIVATE_KEY));
  });

  it("returns a batch proof whose public words are the witness's", async () => {
    const proof = await proverWith([]).proveBatch(batch);
    expect(size(proof)).toBe(1088);
    expect(decodeDeciderWithdrawProof(proof)).toMatchObject({
      steps: 3n,
      root: batch.root,
      recipientHash: hexToBigInt(batch.recipientHash),
      lastLeafPosition: 20n,
      totalValue: 1000n,
    });
  });

  it("passes the program only PATH-like variables, never the daemon's keys", async () => {
    const envFile = join(dir, "env.json");
    const env = { PATH: process.env["PATH"], HOME: "/home/svc", SVC_TREASURY_PK: `0x${"11".repeat(32)}`, SVC_RELAYER_PK: `0x${"22".repeat(32)}` };
    await proverWith(["--env-names-file", envFile], { env }).proveSingle(single);
    const names: unknown = JSON.parse(await readFile(envFile, "utf8"));
    expect(names).toEqual(["HOME", "PATH"]);
    expect(INHERITED_ENV_VARIABLES).not.toContain("SVC_TREASURY_PK");
  });
});

describe("createCommandProver: failures, each with its reason code", () => {
  it("prover_unavailable: the program does not exist", async () => {
    const error = await failureOf(
      createCommandProver({ command: [join(dir, "no-such-prover")], chainId: 31337, timeoutMs: RUN_TIMEOUT_MS, concurrency: 1 }).proveSingle(single),
    );
    expect(error).toBeInstanceOf(ProverUnavailableError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.unavailable, adapter: "command", circuit: "single", code: "ENOENT" });
    expect(error.message).toMatchInlineSnapshot(`"Cannot start the prover program (ENOENT) for a single proof."`);
  });

  it("prover_unavailable: the program is not executable", async () => {
    const notExecutable = join(dir, "not-executable");
    await writeFile(notExecutable, "#!/bin/sh\n", { mode: 0o644 });
    const error = await failureOf(
      createCommandProver({ command: [notExecutable], chainId: 31337, timeoutMs: RUN_TIMEOUT_MS, concurrency: 1 }).proveBatch(batch),
    );
    expect(error).toMatchObject({ name: "ProverUnavailableError", reason: "prover_unavailable", circuit: "batch", code: "EACCES" });
  });

  it("prover_failed: the program exits non-zero, even after printing a valid proof; its stderr (the witness echoed) is only counted", async () => {
    const error = await failureOf(proverWith(["--fail", "3"]).proveSingle(single));
    expect(error).toBeInstanceOf(ProverFailedError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.failed, outcome: { exitCode: 3 } });
    expect(error.details).toMatch(/^stderr: \d{3,} bytes, not shown \(it may echo the witness\)$/);
    expect(error.message).toMatchInlineSnapshot(`
      "The prover program exited with code 3 for a single proof.

      Details: stderr: 972 bytes, not shown (it may echo the witness)"
    `);
  });

  it("prover_witness_rejected: the program exits 65, whatever it printed", async () => {
    const error = await failureOf(proverWith(["--fail", "65"]).proveBatch(batch));
    expect(error).toBeInstanceOf(ProverWitnessRejectedError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.witnessRejected, adapter: "command", circuit: "batch" });
    expect(error.message).toMatchInlineSnapshot(`"The circuit refuses the witness of this batch proof: no proof of it exists."`);
  });

  it("prover_witness_rejected: a real snarkjs program refuses a witness whose siblings are out of order", async () => {
    const circuit = await buildSingleTeleportCircuit({ protocol: "zerc20-v2" });
    const statement = buildTrueWithdrawProofInputs({ label: "command program" });
    const [, wrong] = wrongWitnesses(statement).find(([what]) => what === "siblings out of order") ?? [];
    if (wrong === undefined) throw new Error("no wrong witness");
    const prover = createCommandProver({
      command: [process.execPath, SNARKJS_PROVER_PROGRAM, "--wasm", circuit.wasmPath, "--zkey", circuit.zkeyPath],
      chainId: 31337,
      timeoutMs: RUN_TIMEOUT_MS,
      concurrency: 1,
    });
    const error = await failureOf(prover.proveSingle(wrong), wrong.secret);
    expect(error).toMatchObject({ name: "ProverWitnessRejectedError", reason: "prover_witness_rejected", adapter: "command" });
    // On a fresh clone the circuit is built first (a minute or two, once).
  }, 600_000);

  it("prover_timeout: the program hangs; it and what it started are killed", async () => {
    const pidFile = join(dir, "hang.pid");
    const grandchildPidFile = join(dir, "hang-grandchild.pid");
    // Long enough for Node to start and write both pid files on a busy machine.
    const error = await failureOf(
      proverWith(["--hang", "--pid-file", pidFile, "--grandchild-pid-file", grandchildPidFile], { timeoutMs: 3000 }).proveSingle(single),
    );
    expect(error).toBeInstanceOf(ProverTimeoutError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.timeout, timeoutMs: 3000 });
    expect(error.message).toMatchInlineSnapshot(`"The prover program took longer than 3000 ms for a single proof and was killed."`);
    const pids = await Promise.all([pidFile, grandchildPidFile].map(async (file) => Number(await readFile(file, "utf8"))));
    await pollUntil(() => pids.every((pid) => !isAlive(pid)), { what: "the hung program and its child killed" });
  });

  it("prover_timeout: the program answers and exits, but a child it detached keeps its stdout open", async () => {
    const grandchildPidFile = join(dir, "detached-grandchild.pid");
    try {
      const error = await failureOf(proverWith(["--grandchild-pid-file", grandchildPidFile, "--detach-grandchild"], { timeoutMs: 3000 }).proveSingle(single));
      expect(error).toMatchObject({ name: "ProverTimeoutError", reason: "prover_timeout" });
    } finally {
      // Out of the adapter's process group, so out of its reach: the test cleans it up.
      const grandchild = Number(await readFile(grandchildPidFile, "utf8").catch(() => "0"));
      if (grandchild > 0) process.kill(grandchild, "SIGKILL");
    }
  });

  it.each([
    ["prints the witness back instead of a proof", ["--echo"], /^expected one 0x-prefixed hex string of whole bytes, got \d+ bytes of something else$/],
    ["prints a proof of another value", ["--other", "value"], /^its public value is not the witness's$/],
    ["prints a proof of another root", ["--other", "root"], /^its public transfer root is not the witness's$/],
    ["prints a proof of another recipient", ["--other", "recipient_hash"], /^its public recipient hash is not the witness's$/],
    ["prints a proof one byte short", ["--truncate"], /^expected 352 bytes, got 351$/],
    ["floods stdout", ["--flood"], /^more than 65536 bytes on stdout$/],
  ])("prover_output_invalid: the program %s", async (_what, flags, problem) => {
    const error = await failureOf(proverWith(flags).proveSingle(single));
    expect(error).toBeInstanceOf(ProverOutputInvalidError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.outputInvalid, problem: expect.stringMatching(problem) });
  });

  it("prover_output_invalid: a batch proof of other public inputs", async () => {
    const error = await failureOf(proverWith(["--other", "root"]).proveBatch(batch));
    expect(error).toMatchObject({ reason: "prover_output_invalid", circuit: "batch", problem: "its public transfer root is not the witness's" });
  });
});

describe("createCommandProver: concurrency and closing", () => {
  it("runs at most prover.concurrency programs at once, single and batch together", async () => {
    const gate = await mkdtemp(join(dir, "gate-"));
    const prover = proverWith(["--gate", gate], { concurrency: 2 });
    const proofs = Promise.all([
      prover.proveSingle(single),
      prover.proveBatch(batch),
      prover.proveSingle(single),
      prover.proveBatch(batch),
      prover.proveSingle(single),
    ]);
    const running = async () => (await readdir(gate)).filter((name) => name.startsWith("running-")).length;
    await pollUntil(async () => (await running()) === 2, { what: "two programs running" });
    await writeFile(join(gate, "release"), "");
    expect(await proofs).toHaveLength(5);
    // Each program recorded the most runs it saw at once while it waited.
    const seen = await Promise.all(
      (await readdir(gate)).filter((name) => name.startsWith("seen-")).map(async (name) => Number(await readFile(join(gate, name), "utf8"))),
    );
    expect(seen).toHaveLength(5);
    expect(Math.max(...seen)).toBe(2);
  });

  it("close() kills a running program, answers prover_unavailable, and refuses later proofs", async () => {
    const pidFile = join(dir, "closed.pid");
    const prover = proverWith(["--hang", "--pid-file", pidFile], { concurrency: 1 });
    const runningProof = failureOf(prover.proveSingle(single));
    const queuedProof = failureOf(prover.proveBatch(batch));
    await pollUntil(async () => (await readFile(pidFile, "utf8").catch(() => "")) !== "", { what: "the program started" });
    const pid = Number(await readFile(pidFile, "utf8"));
    await prover.close();
    expect(isAlive(pid)).toBe(false);
    expect(await runningProof).toMatchObject({ name: "ProverUnavailableError", reason: "prover_unavailable", circuit: "single" });
    expect(await queuedProof).toMatchObject({ name: "ProverUnavailableError", reason: "prover_unavailable", circuit: "batch" });
    const later = await failureOf(prover.proveSingle(single));
    expect(later.message).toMatchInlineSnapshot(`"The prover adapter is closed; no single proof was made."`);
  });
});
