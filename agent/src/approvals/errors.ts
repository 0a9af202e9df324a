import { BaseError } from "@svc/scheme";

/** Thrown when no pending approval has the given id (never requested, already decided and gone, or timed out). */
export class ApprovalNotFoundError extends BaseError {
  override name = "ApprovalNotFoundError";
  constructor({ id }: { id: string }) {
    super(`No pending approval with id ${JSON.stringify(id.slice(0, 40))}.`);
  }
}

/** Thrown when an approval already has a decision: the first decision wins and is never overwritten. */
export class ApprovalAlreadyDecidedError extends BaseError {
  override name = "ApprovalAlreadyDecidedError";
  /** The decision already on file. */
  readonly decision: string;
  constructor({ id, decision }: { id: string; decision: string }) {
    super(`Approval ${id} was already decided: ${decision}.`);
    this.decision = decision;
  }
}

/** Thrown when the waiting agent is interrupted (Ctrl-C, SIGTERM): the request is withdrawn and nothing is paid. */
export class ApprovalInterruptedError extends BaseError {
  override name = "ApprovalInterruptedError";
  constructor({ id }: { id: string }) {
    super(`Interrupted while waiting for approval of payment ${id}; nothing was paid.`);
  }
}

/** Thrown when a human answers an approval after its deadline: the agent declines on its own, nothing is paid. */
export class ApprovalExpiredError extends BaseError {
  override name = "ApprovalExpiredError";
  constructor({ id, decideBy, offerBound }: { id: string; decideBy: number; offerBound: boolean }) {
    super(
      `Approval ${id} expired at ${new Date(decideBy).toISOString()} (${offerBound ? "the offer's last usable moment" : "SVC_APPROVAL_TIMEOUT_MS"}); it can no longer be approved or denied, and nothing will be paid. Ask for a fresh offer to pay this resource.`,
    );
  }
}

/** Thrown when the agent that asked for an approval has gone (its process ended): nothing will be paid. */
export class ApprovalAgentGoneError extends BaseError {
  override name = "ApprovalAgentGoneError";
  constructor({ id, pid }: { id: string; pid: number }) {
    super(`The agent waiting on approval ${id} (process ${pid}) is gone; there is nothing to decide and nothing will be paid.`);
  }
}

/** Thrown when a payment with this id exists but no longer waits for a human (decided, timed out, or paid). */
export class ApprovalClosedError extends BaseError {
  override name = "ApprovalClosedError";
  constructor({ id, status, message }: { id: string; status: string; message: string | undefined }) {
    super(`Payment ${id} is not waiting for approval any more: it is ${status}${message === undefined ? "" : ` (${message})`}.`);
  }
}
