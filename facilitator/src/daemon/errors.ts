/** Errors of the running daemon's in-process surface. */
import { BaseError } from "../errors/base.js";

/** The daemon is stopping or stopped: it takes no more in-process verify or settle calls. */
export class InProcessSettlementStoppedError extends BaseError {
  override name = "InProcessSettlementStoppedError";
  readonly operation: "verify" | "settle";
  constructor({ operation }: { operation: "verify" | "settle" }) {
    super(`svc-zerc20 ${operation} refused: the facilitator daemon is stopping`);
    this.operation = operation;
  }
}

/**
 * An in-process verify or settle failed unexpectedly (a bug, not a refused payment). The daemon logged the
 * cause as `in_process_error`; it is not attached here, because a foreign message can quote an RPC URL.
 */
export class InProcessSettlementFailedError extends BaseError {
  override name = "InProcessSettlementFailedError";
  readonly operation: "verify" | "settle";
  constructor({ operation }: { operation: "verify" | "settle" }) {
    super(`svc-zerc20 ${operation} failed: internal error (logged by the facilitator daemon as in_process_error)`);
    this.operation = operation;
  }
}
