import { BaseError } from "@svc/scheme";

import { LedgerEntryNotFoundError } from "./errors.js";
import type { LedgerEntry } from "./ledgerEntry.js";

/** The agent's own payment id: 12 lower-case hex digits, printed by `pay`, `ledger`, `history` and the TUI. */
export const LEDGER_ID_PATTERN = /^[0-9a-f]{12}$/;

/** The facilitator's payment id: the offer's `challengeNonce`, `0x` and 64 hex digits. */
export const CHALLENGE_NONCE_PATTERN = /^0x[0-9a-fA-F]{64}$/;

/** A payment id as typed: the agent's short id or the facilitator's challenge nonce; the two forms cannot collide. */
export type PaymentIdArgument = { kind: "ledger"; id: string } | { kind: "nonce"; challengeNonce: `0x${string}` };

/** Thrown for a payment id that is neither form: a usage mistake. The message quotes at most 40 characters. */
export class PaymentIdFormatError extends BaseError {
  override name = "PaymentIdFormatError";
  constructor({ value }: { value: string }) {
    super(
      `${JSON.stringify(value.slice(0, 40))} is not a payment id: expected the 12-hex-digit id \`pay\` and \`ledger\` print (e.g. 3f9a0c1b2d4e) or the facilitator's 0x-prefixed 64-hex-digit payment id.`,
    );
  }
}

/** Reads a typed payment id; throws `PaymentIdFormatError` for anything else. */
export function parsePaymentId(value: string): PaymentIdArgument {
  const trimmed = value.trim();
  if (LEDGER_ID_PATTERN.test(trimmed)) return { kind: "ledger", id: trimmed };
  if (CHALLENGE_NONCE_PATTERN.test(trimmed)) return { kind: "nonce", challengeNonce: trimmed.toLowerCase() as `0x${string}` };
  throw new PaymentIdFormatError({ value });
}

/** The ledger entry a typed id names, in either form; `undefined` when the ledger has none. */
export function findPayment(entries: readonly LedgerEntry[], payment: PaymentIdArgument): LedgerEntry | undefined {
  return payment.kind === "ledger"
    ? entries.find((entry) => entry.id === payment.id)
    : entries.find((entry) => entry.challengeNonce.toLowerCase() === payment.challengeNonce);
}

/** Like `findPayment`, but throws `LedgerEntryNotFoundError` (a usage mistake: the id names nothing here). */
export function getPayment(entries: readonly LedgerEntry[], value: string): LedgerEntry {
  const entry = findPayment(entries, parsePaymentId(value));
  if (entry === undefined) throw new LedgerEntryNotFoundError({ id: value });
  return entry;
}
