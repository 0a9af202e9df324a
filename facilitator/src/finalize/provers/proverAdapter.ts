/**
 * What every prover adapter the daemon builds offers: the prover port, and a way to stop what it runs when
 * the daemon stops (after the shutdown grace), so no prover program outlives the daemon.
 */
import type { ProverPort } from "../proverPort.js";

/** A prover port the daemon can close. */
export type ProverAdapter = ProverPort & {
  /**
   * Kills running prover programs (aborts open requests) and refuses further proofs with
   * `prover_unavailable`; resolves once every program it started has exited.
   */
  close: () => Promise<void>;
};

/** The limits every external adapter applies (from `[prover]`). */
export type ProverLimits = {
  /** How long one proof may take once it runs (`prover.timeout_ms`); waiting for a slot does not count. */
  timeoutMs: number;
  /** How many proofs may run at once (`prover.concurrency`), single and batch together. */
  concurrency: number;
};
