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
