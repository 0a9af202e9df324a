import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import type { AmountFormat } from "../payment/amountFormat.js";
import type { PayOutcome } from "../payment/payOutcome.js";

/** How a payment started in this session ended: its outcome, or the error that stopped it. */
export type SessionPaymentEnd = { outcome: PayOutcome; format: AmountFormat } | { error: unknown };

/** A payment this session started whose approval was asked for: the request and how the payment ends. */
export type SessionPayment = { request: ApprovalRequest; end: Promise<SessionPaymentEnd> };

/**
 * The payments of one MCP session that went on after `fetch_resource` answered `approval_required`. Each
 * keeps running in this process (the approval waits on files, the payment is made at most once, by it);
 * `payment_status` only watches. Closing the session withdraws every approval still waiting, which releases
 * its reservation, and waits for payments already approved to finish.
 */
export class SessionPayments {
  private readonly payments = new Map<string, SessionPayment>();
  private readonly controller = new AbortController();

  /** Aborted when the session closes: a waiting approval is withdrawn. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Remembers a payment that waits for a human. */
  track(request: ApprovalRequest, end: Promise<SessionPaymentEnd>): void {
    this.payments.set(request.id, { request, end });
  }

  /** The payment with this id if this session started it. */
  get(id: string): SessionPayment | undefined {
    return this.payments.get(id);
  }

  /** Withdraws what still waits for a human and waits for every payment to end. */
  async close(): Promise<void> {
    this.controller.abort();
    await Promise.all([...this.payments.values()].map((payment) => payment.end));
  }
}

/** Runs `payment` to its end without ever rejecting, so a payment left running never becomes an unhandled rejection. */
export function settleEnd(payment: Promise<PayOutcome>, format: () => AmountFormat): Promise<SessionPaymentEnd> {
  return payment.then(
    (outcome) => ({ outcome, format: format() }),
    (error: unknown) => ({ error }),
  );
}
