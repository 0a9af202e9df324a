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

/** The two external adapter kinds: a program run per proof, or an HTTP service. */
export type ProverAdapterKind = "command" | "http";

/** Where a prover failure happened. */
export type ProverErrorContext = {
  /** Which adapter failed. */
  adapter: ProverAdapterKind;
  /** Which proof it was asked for. */
  circuit: ProverCircuit;
};

function subject(adapter: ProverAdapterKind): string {
  return adapter === "command" ? "the prover program" : "the prover service";
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** What the prover wrote that is never shown: its length only (`size` a byte count or "more than 65536"). */
export function unshownBytes(what: string, size: number | string): string {
  return `${what}: ${size} bytes, not shown (it may echo the witness)`;
}

/** The common shape of the four prover failures: the reason code, the adapter and the circuit. */
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
    const message =
      problem === "closed"
        ? `The prover adapter is closed; no ${context.circuit} proof was made.`
        : context.adapter === "command"
          ? `Cannot start the prover program${code === undefined ? "" : ` (${code})`} for a ${context.circuit} proof.`
          : `Cannot reach the prover service${code === undefined ? "" : ` (${code})`} for a ${context.circuit} proof.`;
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
    const ending = context.adapter === "command" ? "and was killed" : "and the request was aborted";
    super(context, `${capitalized(subject(context.adapter))} took longer than ${timeoutMs} ms for a ${context.circuit} proof ${ending}.`);
    this.timeoutMs = timeoutMs;
  }
}

/** How a prover failed: the program's exit code or the signal that killed it, or the service's HTTP status. */
export type ProverFailedOutcome = { exitCode: number } | { signal: string } | { status: number };

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
          : `answered HTTP ${outcome.status}`;
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
    const what = context.adapter === "command" ? "the prover program's output" : "the prover service's answer";
    super(context, `${capitalized(what)} is not a ${context.circuit} proof of this witness: ${problem}.`);
    this.problem = problem;
  }
}

/** The proof inputs cannot be written as a witness (a caller's mistake, not the prover's); nothing was run. */
export class ProverWitnessError extends BaseError {
  override name = "ProverWitnessError";

  constructor({ problem }: { problem: string }) {
    super(`Cannot build the prover witness: ${problem}.`);
  }
}
