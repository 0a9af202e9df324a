/**
 * The daemon's `/verify` and `/settle` for code in the daemon's own process, without HTTP: what the
 * svc-zerc20 mechanism of the official `x402Facilitator` calls (x402Mechanism/). The same settlement as the
 * routes (journal, challenge store, settle claims, metrics), so a body gets the same answer either way.
 *
 * It is a boundary to foreign code, like the HTTP error middleware: an unexpected error is logged here through
 * the daemon's redacting logger and the caller gets {@link InProcessSettlementFailedError}, which names the
 * operation only (a viem error quotes RPC URLs, and the caller's server may print what it catches). Once the
 * daemon stops, calls are refused with {@link InProcessSettlementStoppedError}, as its closed port refuses them.
 */
import type { ClassifiedFacilitatorBody, Network, SettleResponse, VerifyResponse } from "@svc/scheme";
import { errorLogFields } from "../http/errorLogFields.js";
import type { Logger } from "../log/createLogger.js";
import type { SettlementService } from "../settlement/createSettlementService.js";
import { InProcessSettlementFailedError, InProcessSettlementStoppedError } from "./errors.js";

/** The daemon's verify and settle as a caller in the same process sees them. */
export type InProcessSettlement = {
  /** The one network the daemon settles on (`eip155:<chain id>`). */
  network: Network;
  /** False under a profile that accepts no payments: `/supported` lists no kind, every call answers `profile_unsupported`. */
  acceptsPayments: boolean;
  /** `/verify` on a classified body: never mutates; a failed check is `isValid: false` with a reason code. */
  verify: (body: ClassifiedFacilitatorBody) => Promise<VerifyResponse>;
  /** `/settle` on a classified body: a refused payment is `success: false` with a reason code. */
  settle: (body: ClassifiedFacilitatorBody) => Promise<SettleResponse>;
};

/** Inputs to {@link createInProcessSettlement}. */
export type CreateInProcessSettlementParameters = {
  network: Network;
  acceptsPayments: boolean;
  /** The settlement the routes call (with its metrics). */
  settlement: Pick<SettlementService, "verify" | "settle">;
  logger: Logger;
};

/** The in-process settlement with the daemon's side of its lifecycle. */
export type InProcessSettlementHandle = {
  settlement: InProcessSettlement;
  /** Refuses every later call; the calls already running go on. */
  close: () => void;
  /** The calls still running, for a graceful shutdown. */
  inflight: () => Promise<unknown>[];
};

/** Wraps the daemon's settlement for callers in its process. */
export function createInProcessSettlement(parameters: CreateInProcessSettlementParameters): InProcessSettlementHandle {
  const { settlement, logger } = parameters;
  const running = new Set<Promise<unknown>>();
  let closed = false;

  const call = <T>(operation: "verify" | "settle", run: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new InProcessSettlementStoppedError({ operation }));
    const answer = run().catch((error: unknown) => {
      logger.error("in_process_error", { operation, ...errorLogFields(error) });
      throw new InProcessSettlementFailedError({ operation });
    });
    const tracked: Promise<unknown> = answer.then(
      () => running.delete(tracked),
      () => running.delete(tracked),
    );
    running.add(tracked);
    return answer;
  };

  return {
    settlement: {
      network: parameters.network,
      acceptsPayments: parameters.acceptsPayments,
      verify: (body) => call("verify", () => settlement.verify(body)),
      settle: (body) => call("settle", () => settlement.settle(body)),
    },
    close: () => {
      closed = true;
    },
    inflight: () => [...running],
  };
}
