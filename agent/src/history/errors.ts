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

/** Thrown when the facilitator answers the history login with 404: it runs without payment history. */
export class HistoryDisabledError extends BaseError {
  override name = "HistoryDisabledError";
  constructor() {
    super(
      'This facilitator has payment history turned off (its history routes answer 404); ask its operator, or see facilitator/README.md, "Payment history and proofs".',
    );
  }
}

/** Thrown when the facilitator has no payment under the given id for this payer: a usage mistake. */
export class PaymentNotRecordedError extends BaseError {
  override name = "PaymentNotRecordedError";
  constructor({ paymentId }: { paymentId: string }) {
    super(`The facilitator has no payment ${paymentId} for this payer; \`history\` lists the ones it has.`);
  }
}

/** Thrown before anything is asked of the facilitator when `--trust-anchor` cannot be read. */
export class TrustAnchorUnreadableError extends BaseError {
  override name = "TrustAnchorUnreadableError";
  constructor({ path, code }: { path: string; code: string }) {
    super(`--trust-anchor ${path} cannot be read (${code}); nothing was requested. The trust anchor comes from the facilitator's operator, out of band.`);
  }
}
