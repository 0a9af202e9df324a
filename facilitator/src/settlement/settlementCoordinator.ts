/**
 * The settles running right now, one per challenge. A settle claims its challenge before its first await, so
 * two concurrent settles of one challenge never both proceed: an identical payment shares the running
 * outcome, a different one is refused. This is process state only; what is durable lives in the journal and
 * the book folded from it.
 */
import type { SettleResponse } from "@svc/scheme";
import type { Hex } from "viem";

/** A settle in flight: which payment, and the answer it will give. */
export type RunningSettle = { digest: Hex; result: Promise<SettleResponse> };

/** Claims challenges for settles. */
export class SettlementCoordinator {
  readonly #running = new Map<string, RunningSettle>();

  /** The settle running for `challengeNonce`, if any. */
  running(challengeNonce: Hex): RunningSettle | undefined {
    return this.#running.get(challengeNonce.toLowerCase());
  }

  /**
   * Runs `settle` as the one settle of `challengeNonce` (claimed synchronously, before `settle` starts) and
   * releases the claim when it ends, whatever the outcome.
   */
  run(challengeNonce: Hex, digest: Hex, settle: () => Promise<SettleResponse>): Promise<SettleResponse> {
    const key = challengeNonce.toLowerCase();
    const result = Promise.resolve().then(settle);
    this.#running.set(key, { digest, result });
    return result.finally(() => this.#running.delete(key));
  }

  /** Every settle still running (for a graceful shutdown). */
  inflight(): Promise<SettleResponse>[] {
    return [...this.#running.values()].map((running) => running.result);
  }
}
