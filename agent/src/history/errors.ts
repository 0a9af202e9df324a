import { BaseError } from "@svc/scheme";

/** Thrown when a history or proof command runs without `SVC_FACILITATOR_URL`. */
export class FacilitatorUrlMissingError extends BaseError {
  override name = "FacilitatorUrlMissingError";
  constructor() {
    super("SVC_FACILITATOR_URL is not set: payment history and proofs are read from the facilitator (e.g. http://127.0.0.1:4032).");
  }
}

/** Thrown when a history or proof command runs without `SVC_PAYER_PK`: the login is signed by the payer wallet. */
export class HistoryKeyMissingError extends BaseError {
  override name = "HistoryKeyMissingError";
  constructor() {
    super("SVC_PAYER_PK is not set: the history login is signed by the payer's wallet.");
  }
}
