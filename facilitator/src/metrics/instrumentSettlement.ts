/**
 * Wrappers that feed {@link FacilitatorMetrics} from the outside of the settlement core, the finalize step and
 * the relayer queue: the core stays free of metric calls, and what is counted is exactly what callers saw.
 */
import type { ClassifiedFacilitatorBody, SettleResponse, VerifyResponse } from "@svc/scheme";

import type { SerialSender } from "../chain/createKeySender.js";
import type { FinalizeRelease } from "../finalize/createFinalizeLoop.js";
import type { FinalizeOutcome } from "../finalize/finalizeEntry.js";
import type { SettlementEntry } from "../settlement/settlementBook.js";
import type { FacilitatorMetrics } from "./createFacilitatorMetrics.js";

/** `verify` and `settle` counted by outcome, `settle` also timed. */
export function instrumentSettlement(
  metrics: FacilitatorMetrics,
  core: {
    verify: (body: ClassifiedFacilitatorBody) => Promise<VerifyResponse>;
    settle: (body: ClassifiedFacilitatorBody) => Promise<SettleResponse>;
  },
): typeof core {
  return {
    verify: async (body) => {
      const response = await core.verify(body);
      metrics.verified(response.isValid ? "valid" : (response.invalidReason ?? "unknown"));
      return response;
    },
    settle: async (body) => {
      const started = performance.now();
      const response = await core.settle(body);
      const phase = (response.extra as { phase?: unknown } | undefined)?.phase;
      const outcome = response.success ? (typeof phase === "string" ? phase : "success") : (response.errorReason ?? "unknown");
      metrics.settled(outcome, response.success, (performance.now() - started) / 1000);
      return response;
    },
  };
}

/** The finalize step with failed entries counted by reason and thrown attempts by error name. */
export function instrumentFinalize(
  metrics: FacilitatorMetrics,
  finalize: (entry: SettlementEntry, release: FinalizeRelease) => Promise<FinalizeOutcome>,
): (entry: SettlementEntry, release: FinalizeRelease) => Promise<FinalizeOutcome> {
  return async (entry, release) => {
    try {
      const outcome = await finalize(entry, release);
      if (outcome.kind === "failed") metrics.finalizeFailed(outcome.reason);
      // Counted when the mint lands, not when the schedule lets it go: a waiting payment is released again next pass.
      if (outcome.kind === "finalized" && release.releasedAlone) metrics.releasedAlone();
      return outcome;
    } catch (error) {
      metrics.finalizePassFailed(error instanceof Error ? error.name : "unknown");
      throw error;
    }
  };
}

/** A relayer queue whose submitted-but-unanswered transactions are counted. */
export function trackRelayerQueue(queue: SerialSender): { queue: SerialSender; depth: () => number } {
  let depth = 0;
  return {
    queue: {
      ...queue,
      send: async (call, options) => {
        depth += 1;
        try {
          return await queue.send(call, options);
        } finally {
          depth -= 1;
        }
      },
    },
    depth: () => depth,
  };
}
