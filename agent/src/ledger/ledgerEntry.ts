import { AddressSchema, Bytes32Schema, NetworkSchema, type Offer } from "@svc/scheme";
import { z } from "zod";

import { BaseUnitsSchema } from "./baseUnitsSchema.js";

/**
 * Where a payment stands. Every status but `released` counts against `SVC_MAX_TOTAL`: `reserved` and
 * `signed` are in flight, `unknown` may have been paid (timeout, lost answer, unconfirmed burn), `settled`
 * was paid, and `failed` means the provider refused but the tokens had already left (a confirmed
 * self-transfer burn). Only a definite failure before any funds could move is `released`.
 */
export const PAYMENT_STATUSES = ["reserved", "signed", "unknown", "settled", "failed", "released"] as const;

/** One of the ledger's payment statuses. */
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** HTTP methods a paid request may use. */
export const REQUEST_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The request a resource was asked with, when it was not a plain GET: the paid request (and any re-send) repeats it. */
export const ResourceRequestSchema = z.object({
  method: z.enum(REQUEST_METHODS),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
});

/** A resource request: method, extra headers and a text body. */
export type ResourceRequest = z.infer<typeof ResourceRequestSchema>;

/** The part of the scheme's `Offer` a ledger entry keeps: which offer it pays, how much, and until when. */
export type LedgerOffer = Pick<Offer, "asset" | "amount" | "payTo" | "challengeNonce" | "expiresAt">;

/**
 * One payment in the ledger: the offer it pays, its status, and the exact header bytes once signed. Decoding
 * gives the in-memory entry (the offer part a {@link LedgerOffer}); `z.encode` gives back the file's strings.
 */
export const LedgerEntrySchema = z.object({
  /** Short random id, used by `resend` and approvals. */
  id: z.string().regex(/^[0-9a-f]{12}$/),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  status: z.enum(PAYMENT_STATUSES),
  /** The URL the payment is (re-)sent to: the last hop of the request that answered 402. */
  url: z.string(),
  mode: z.enum(["permit", "self-transfer"]),
  network: NetworkSchema,
  asset: AddressSchema,
  amount: BaseUnitsSchema,
  payTo: AddressSchema,
  challengeNonce: Bytes32Schema,
  /** The offer's `extra.expiresAt`: a resend after it is refused. */
  expiresAt: z.number().int().nonnegative(),
  /** The request's method, headers and body when it was not a plain GET; sending and re-sending repeat it. */
  request: ResourceRequestSchema.optional(),
  /** The MCP server session that reserved the payment, for `SVC_MAX_PER_MCP_SESSION`; absent outside MCP and in older files. */
  mcpSession: z.string().optional(),
  /** The `PAYMENT-SIGNATURE` value, stored before it is first sent; `resend` sends exactly these bytes. */
  paymentHeader: z.string().optional(),
  /** Self-transfer: the burn's hash, stored before the burn is broadcast. */
  burnTxHash: Bytes32Schema.optional(),
  /** The burn transaction the provider reported in `PAYMENT-RESPONSE`. */
  transaction: z.string().optional(),
  /** The provider's or facilitator's reason for the last failure. */
  errorReason: z.string().optional(),
  /** A human-readable account of the last outcome. */
  message: z.string().optional(),
}) satisfies z.ZodType<LedgerOffer>;

/** One payment in the ledger, in memory. */
export type LedgerEntry = z.output<typeof LedgerEntrySchema>;

/** The whole `ledger.json`. */
export const LedgerFileSchema = z.object({
  version: z.literal(1),
  entries: z.array(LedgerEntrySchema),
});

/** The contents of `ledger.json`, in memory. */
export type LedgerFile = z.output<typeof LedgerFileSchema>;

/** True when an entry's amount counts against the total cap. */
export function countsAgainstCap(status: PaymentStatus): boolean {
  return status !== "released";
}
