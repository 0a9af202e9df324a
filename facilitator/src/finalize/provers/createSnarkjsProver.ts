/**
 * The snarkjs prover adapter: proves single teleports with a circom circuit's witness calculator and Groth16
 * proving key (`prover.wasm`, `prover.zkey`) in `prover.concurrency` worker threads of this process, so the
 * event loop never runs a proof. The witness is mapped to the circuit's inputs by the scheme's
 * `singleTeleportCircuitInput` (the whole transfer withdrawn, `delta = 0`) and the answer goes through
 * `checkProverProof` like every adapter's.
 *
 * It proves the single path only: the circuit proves one transfer. A burn address that received several needs
 * the batch proof (Nova folding and the decider). Under profile `local` the batch path is the fixture
 * adapter's, through the stack's decider, passed in as `batch`; elsewhere `proveBatch` refuses with
 * `prover_unsupported` and the payment waits (`proof_unsupported`). Nothing here accepts or makes a fixture
 * proof.
 *
 * Start refuses files that cannot be read or checked (`loadCircuitFiles.ts`), and a pair that does not prove
 * the self-test statement of `network.protocol` (`snarkjsSelfTest.ts`). A failed constraint is
 * `prover_witness_rejected`; a proof past `prover.timeout_ms` stops its thread (`prover_timeout`) and a fresh
 * one takes the next job.
 */
import {
  encodeGroth16Proof,
  groth16ProofFromSnarkjs,
  ProofEncodingError,
  type ProtocolVersion,
  singleTeleportCircuitInput,
  type SingleTeleportCircuitInput,
} from "@svc/scheme";
import { hexToBigInt, type Hex } from "viem";
import type { WithdrawProofInputs } from "../proverPort.js";
import { checkProverProof } from "./checkProverProof.js";
import { createSemaphore } from "./createSemaphore.js";
import {
  ProverCircuitError,
  ProverFailedError,
  ProverOutputInvalidError,
  ProverTimeoutError,
  ProverUnavailableError,
  ProverUnsupportedError,
  ProverWitnessError,
  ProverWitnessRejectedError,
  type ProverErrorContext,
} from "./errors.js";
import { loadCircuitFiles, type CircuitFiles } from "./loadCircuitFiles.js";
import type { ProverAdapter, ProverLimits } from "./proverAdapter.js";
import { selfTestStatement } from "./snarkjsSelfTest.js";
import { SnarkjsProverThread, type ThreadAnswer, type ThreadStop } from "./snarkjsProverThread.js";

/** The circuit files, the statement they must prove, the limits, and who makes batch proofs. */
export type CreateSnarkjsProverParameters = ProverLimits & {
  /** `prover.wasm`: the circuit's witness calculator. */
  wasm: string;
  /** `prover.zkey`: its Groth16 proving key. */
  zkey: string;
  /** `network.protocol`: the version whose single-teleport statement the circuit proves. */
  protocol: ProtocolVersion;
  /** The batch path, where one exists (the fixture adapter's under profile `local`); without it batches are refused. */
  batch?: ((inputs: WithdrawProofInputs) => Promise<Hex>) | undefined;
};

/** The snarkjs adapter, and what it says about its circuit. */
export type SnarkjsProver = ProverAdapter & {
  /** Signals of one witness of the circuit (what the self-test computed). */
  witnessSize: number;
  /** Prover threads running now (busy or idle); at most `concurrency`. */
  threads: () => number;
  /** Jobs a thread is working on now. */
  proving: () => number;
};

/**
 * Checks the circuit files, starts one prover thread (its self-test proves the files fit), and returns the
 * adapter; throws {@link ProverCircuitError} naming `prover.wasm` or `prover.zkey`.
 *
 * @example
 * const prover = await createSnarkjsProver({ wasm, zkey, protocol: "zerc20-v2", timeoutMs: 120_000, concurrency: 2 });
 * const proof = await prover.proveSingle(inputs);
 */
export async function createSnarkjsProver(parameters: CreateSnarkjsProverParameters): Promise<SnarkjsProver> {
  const files = await loadCircuitFiles({ wasm: parameters.wasm, zkey: parameters.zkey });
  const selfTest = singleTeleportCircuitInput(selfTestStatement(parameters.protocol));
  const first = await startThread(files, selfTest, parameters.protocol);
  const slots = createSemaphore(parameters.concurrency);
  const all = new Set<SnarkjsProverThread>([first.thread]);
  const idle: SnarkjsProverThread[] = [first.thread];
  let closed = false;
  let proving = 0;

  const takeThread = async (context: ProverErrorContext): Promise<SnarkjsProverThread> => {
    const ready = idle.pop();
    if (ready !== undefined) return ready;
    let started: SnarkjsProverThread;
    try {
      ({ thread: started } = await startThread(files, selfTest, parameters.protocol));
    } catch (cause) {
      throw new ProverUnavailableError({ ...context, problem: "unreachable", cause });
    }
    all.add(started);
    if (closed) {
      await retire(started);
      throw new ProverUnavailableError({ ...context, problem: "closed" });
    }
    return started;
  };

  const run = async (context: ProverErrorContext, thread: SnarkjsProverThread, input: SingleTeleportCircuitInput): Promise<ThreadAnswer | ThreadStop> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), parameters.timeoutMs);
    });
    proving++;
    try {
      const outcome = await Promise.race([thread.prove(input), timedOut]);
      if (outcome !== "timeout") return outcome;
      await retire(thread);
      throw new ProverTimeoutError({ ...context, timeoutMs: parameters.timeoutMs });
    } finally {
      proving--;
      clearTimeout(timer);
    }
  };

  const retire = async (thread: SnarkjsProverThread): Promise<void> => {
    all.delete(thread);
    await thread.terminate();
  };

  const proveSingle = async (inputs: WithdrawProofInputs): Promise<Hex> => {
    const context: ProverErrorContext = { adapter: "snarkjs", circuit: "single" };
    if (inputs.protocol !== parameters.protocol) {
      throw new ProverUnsupportedError({ ...context, problem: `its circuit proves the ${parameters.protocol} statement, this payment is ${inputs.protocol}` });
    }
    const input = circuitInput(inputs);
    const release = await slots.acquire();
    if (release === undefined) throw new ProverUnavailableError({ ...context, problem: "closed" });
    let thread: SnarkjsProverThread | undefined;
    try {
      if (closed) throw new ProverUnavailableError({ ...context, problem: "closed" });
      thread = await takeThread(context);
      const answer = await run(context, thread, input);
      if ("stopped" in answer) {
        if (closed) throw new ProverUnavailableError({ ...context, problem: "closed" });
        throw new ProverFailedError({ ...context, outcome: { stage: "proof" }, unshown: `its thread stopped (exit code ${answer.exitCode ?? "unknown"})` });
      }
      if (answer.kind === "rejected") throw new ProverWitnessRejectedError({ ...context, constraint: answer.constraint });
      if (answer.kind === "failed") {
        throw new ProverFailedError({ ...context, outcome: { stage: answer.stage }, unshown: "its error is not shown (it may quote the witness)" });
      }
      return checkProverProof({ ...context, proof: encodeProof(context, answer), inputs });
    } finally {
      if (thread?.alive) {
        if (closed) await retire(thread);
        else idle.push(thread);
      }
      release();
    }
  };

  const proveBatch = async (inputs: WithdrawProofInputs): Promise<Hex> => {
    const context: ProverErrorContext = { adapter: "snarkjs", circuit: "batch" };
    if (parameters.batch === undefined) {
      throw new ProverUnsupportedError({ ...context, problem: "its circuit proves one transfer; a burn address that received several needs the batch prover" });
    }
    return checkProverProof({ ...context, proof: await parameters.batch(inputs), inputs });
  };

  return {
    witnessSize: first.witnessSize,
    threads: () => all.size,
    proving: () => proving,
    proveSingle,
    proveBatch,
    close: async () => {
      closed = true;
      slots.close();
      idle.length = 0;
      await Promise.all([...all].map((thread) => retire(thread)));
    },
  };
}

/** Starts a thread and waits for its self-test; throws {@link ProverCircuitError} when the files do not prove the statement. */
async function startThread(
  files: CircuitFiles,
  selfTest: SingleTeleportCircuitInput,
  protocol: ProtocolVersion,
): Promise<{ thread: SnarkjsProverThread; witnessSize: number }> {
  const thread = new SnarkjsProverThread({ wasm: files.wasm, zkey: files.zkey, selfTest });
  const load = await thread.load;
  if (!load.ok) {
    await thread.terminate();
    const where = load.constraint === undefined ? "" : ` (a constraint of ${load.constraint} fails)`;
    throw new ProverCircuitError({
      key: "prover.wasm",
      problem: load.refused
        ? `(${files.wasmPath}) does not prove the ${protocol} single-teleport statement: its witness calculator refuses a true one${where}`
        : `(${files.wasmPath}) cannot compute a witness of the single-teleport inputs (transferRoot, recipientHash, withdrawValue, secret, from, value, delta, leafIndex, siblings[40])`,
    });
  }
  if (load.witnessSize !== files.zkeyHeader.nVars) {
    await thread.terminate();
    throw new ProverCircuitError({
      key: "prover.wasm and prover.zkey",
      problem: `are of different circuits: a witness of ${load.witnessSize} signals, a proving key for ${files.zkeyHeader.nVars}`,
    });
  }
  return { thread, witnessSize: load.witnessSize };
}

/** The circuit input of a single-transfer withdrawal; throws {@link ProverWitnessError} when it is not one. */
function circuitInput(inputs: WithdrawProofInputs): SingleTeleportCircuitInput {
  const [transfer, ...others] = inputs.transfers;
  if (transfer === undefined || others.length > 0) throw new ProverWitnessError({ problem: "transfers: the single circuit proves exactly one transfer" });
  try {
    return singleTeleportCircuitInput({ root: inputs.root, recipientHash: hexToBigInt(inputs.recipientHash), secret: inputs.secret, transfer });
  } catch (error) {
    if (error instanceof ProofEncodingError) throw new ProverWitnessError({ problem: `transfers[0]: ${error.shortMessage}` });
    throw error;
  }
}

/** snarkjs's proof in the 352-byte encoding; anything else is `prover_output_invalid`. */
function encodeProof(context: ProverErrorContext, answer: Extract<ThreadAnswer, { kind: "proof" }>): Hex {
  try {
    return encodeGroth16Proof(groth16ProofFromSnarkjs(answer.proof, answer.publicSignals));
  } catch (error) {
    if (error instanceof ProofEncodingError)
      throw new ProverOutputInvalidError({ ...context, problem: "snarkjs answered something other than a BN254 Groth16 proof" });
    throw error;
  }
}
