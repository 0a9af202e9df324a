/**
 * Errors of the prover adapters. Each failure class carries its snake_case `reason` code
 * (`proverFailureReasons.ts`), the adapter kind and the circuit. None of them ever holds the witness (it
 * carries the burn secret) or quotes what the prover wrote (its stderr, its output or its response body may
 * echo the witness): at most their length in bytes. The HTTP prover's URL, which may carry credentials, is
 * never named either.
 */
import { BaseError } from "../../errors/base.js";
import { PROVER_FAILURE_REASON, type ProverFailureReason } from "./proverFailureReasons.js";
import type { ProverCircuit } from "./proverWitness.js";

/** The adapter kinds that fail with these errors: a program run per proof, an HTTP service, or snarkjs in worker threads. */
export type ProverAdapterKind = "command" | "http" | "snarkjs";

/** Where a prover failure happened. */
export type ProverErrorContext = {
  /** Which adapter failed. */
  adapter: ProverAdapterKind;
  /** Which proof it was asked for. */
  circuit: ProverCircuit;
};

function subject(adapter: ProverAdapterKind): string {
  if (adapter === "snarkjs") return "the snarkjs prover";
  return adapter === "command" ? "the prover program" : "the prover service";
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** What the prover wrote that is never shown: its length only (`size` a byte count or "more than 65536"). */
export function unshownBytes(what: string, size: number | string): string {
  return `${what}: ${size} bytes, not shown (it may echo the witness)`;
}

/** The common shape of the prover failures: the reason code, the adapter and the circuit. */
export abstract class ProverError extends BaseError {
  /** The snake_case reason code of this failure. */
  abstract readonly reason: ProverFailureReason;
  /** Which adapter failed. */
  readonly adapter: ProverAdapterKind;
  /** Which proof it was asked for. */
  readonly circuit: ProverCircuit;

  constructor(context: ProverErrorContext, shortMessage: string, parameters: { cause?: unknown; details?: string | undefined } = {}) {
    super(shortMessage, parameters);
    this.adapter = context.adapter;
    this.circuit = context.circuit;
  }
}

/** The program could not be started, the service could not be reached, or the adapter was closed. */
export class ProverUnavailableError extends ProverError {
  override name = "ProverUnavailableError";
  readonly reason = PROVER_FAILURE_REASON.unavailable;
  /** The system error code (`ENOENT`, `EACCES`, `ECONNREFUSED`, …) when one is known. */
  readonly code: string | undefined;

  constructor({ problem, code, cause, ...context }: ProverErrorContext & { problem: "unreachable" | "closed"; code?: string | undefined; cause?: unknown }) {
    const unreachable = {
      command: "Cannot start the prover program",
      http: "Cannot reach the prover service",
      snarkjs: "Cannot start a snarkjs prover thread",
    }[context.adapter];
    const message =
      problem === "closed"
        ? `The prover adapter is closed; no ${context.circuit} proof was made.`
        : `${unreachable}${code === undefined ? "" : ` (${code})`} for a ${context.circuit} proof.`;
    super(context, message, { cause });
    this.code = code;
  }
}

/** The program or service took longer than `prover.timeout_ms`; the program was killed, the request aborted. */
export class ProverTimeoutError extends ProverError {
  override name = "ProverTimeoutError";
  readonly reason = PROVER_FAILURE_REASON.timeout;
  /** The bound that passed, in milliseconds. */
  readonly timeoutMs: number;

  constructor({ timeoutMs, ...context }: ProverErrorContext & { timeoutMs: number }) {
    const ending = { command: "and was killed", http: "and the request was aborted", snarkjs: "and its thread was stopped" }[context.adapter];
    super(context, `${capitalized(subject(context.adapter))} took longer than ${timeoutMs} ms for a ${context.circuit} proof ${ending}.`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * How a prover failed: the program's exit code or the signal that killed it, the service's HTTP status, or the
 * snarkjs step that threw (`witness`: the witness calculator, for a reason other than a failed constraint;
 * `proof`: the Groth16 prover).
 */
export type ProverFailedOutcome = { exitCode: number } | { signal: string } | { status: number } | { stage: "witness" | "proof" };

/** The program exited non-zero (or was killed by a signal), or the service answered a non-2xx status. */
export class ProverFailedError extends ProverError {
  override name = "ProverFailedError";
  readonly reason = PROVER_FAILURE_REASON.failed;
  /** How it failed: the program's exit code or signal, or the service's HTTP status. */
  readonly outcome: ProverFailedOutcome;

  constructor({ outcome, unshown, ...context }: ProverErrorContext & { outcome: ProverFailedOutcome; unshown: string }) {
    const how =
      "exitCode" in outcome
        ? `exited with code ${outcome.exitCode}`
        : "signal" in outcome
          ? `was killed by ${outcome.signal}`
          : "status" in outcome
            ? `answered HTTP ${outcome.status}`
            : `failed in its ${outcome.stage === "witness" ? "witness calculator" : "Groth16 prover"}`;
    super(context, `${capitalized(subject(context.adapter))} ${how} for a ${context.circuit} proof.`, { details: unshown });
    this.outcome = outcome;
  }
}

/** The answer is not a proof of this witness: unparseable, the wrong length, or over other public inputs. */
export class ProverOutputInvalidError extends ProverError {
  override name = "ProverOutputInvalidError";
  readonly reason = PROVER_FAILURE_REASON.outputInvalid;
  /** What is wrong with it, in our words (never the output itself). */
  readonly problem: string;

  constructor({ problem, ...context }: ProverErrorContext & { problem: string }) {
    const what = { command: "the prover program's output", http: "the prover service's answer", snarkjs: "the snarkjs prover's proof" }[context.adapter];
    super(context, `${capitalized(what)} is not a ${context.circuit} proof of this witness: ${problem}.`);
    this.problem = problem;
  }
}

/**
 * The circuit refuses the witness: a constraint fails, so no proof of it exists (the snarkjs witness calculator
 * stops at the failed constraint; a program exits with {@link WITNESS_REJECTED_EXIT_CODE}; a service answers
 * HTTP 422). The finalize step retries the payment a few times and then fails it as `witness_rejected`.
 */
export class ProverWitnessRejectedError extends ProverError {
  override name = "ProverWitnessRejectedError";
  readonly reason = PROVER_FAILURE_REASON.witnessRejected;
  /** Where the circuit refused it, when the prover says (`MerkleRoot line 82`: the template and source line), never a value. */
  readonly constraint: string | undefined;

  constructor({ constraint, ...context }: ProverErrorContext & { constraint?: string | undefined }) {
    const where = constraint === undefined ? "" : ` (a constraint of ${constraint} fails)`;
    super(context, `The circuit refuses the witness of this ${context.circuit} proof${where}: no proof of it exists.`);
    this.constraint = constraint;
  }
}

/** The exit code a prover program uses to say the circuit refuses the witness (`EX_DATAERR` of sysexits.h). */
export const WITNESS_REJECTED_EXIT_CODE = 65;

/** The HTTP status a prover service answers when the circuit refuses the witness. */
export const WITNESS_REJECTED_HTTP_STATUS = 422;

/** The adapter makes no proof of this kind; nothing was run. */
export class ProverUnsupportedError extends ProverError {
  override name = "ProverUnsupportedError";
  readonly reason = PROVER_FAILURE_REASON.unsupported;
  /** What it cannot prove, in our words. */
  readonly problem: string;

  constructor({ problem, ...context }: ProverErrorContext & { problem: string }) {
    super(context, `${capitalized(subject(context.adapter))} makes no ${context.circuit} proof: ${problem}.`);
    this.problem = problem;
  }
}

/**
 * A `[prover]` circuit file (`prover.wasm`, `prover.zkey`) cannot be used: missing, unreadable, not what the key
 * names, or the pair does not prove the single-teleport statement of `network.protocol`. `check` lists it and
 * `start` refuses to run with it.
 */
export class ProverCircuitError extends BaseError {
  override name = "ProverCircuitError";
  /** The configuration key at fault (`prover.wasm`, `prover.zkey`, or both joined by "and"). */
  readonly key: string;

  constructor({ key, problem, cause }: { key: string; problem: string; cause?: unknown }) {
    super(`${key} ${problem}.`, { cause });
    this.key = key;
  }
}

/** The proof inputs cannot be written as a witness (a caller's mistake, not the prover's); nothing was run. */
export class ProverWitnessError extends BaseError {
  override name = "ProverWitnessError";

  constructor({ problem }: { problem: string }) {
    super(`Cannot build the prover witness: ${problem}.`);
  }
}
