/** The IPC messages between the bench and its payer process (`payerProcess.ts`). */
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { Address, Hex } from "viem";

/** How a payment is made: our permit or self-transfer mode, or the official `exact` scheme (EIP-3009). */
export type PayerScheme = "permit" | "self-transfer" | "exact";

/** What the payer needs to know about the chain and the two tokens. */
export type PayerSetup = {
  rpcUrl: string;
  chainId: number;
  /** The zERC20 token our offers quote. */
  oursAsset: Address;
  /** The EIP-3009 token the exact offers quote. */
  exactAsset: Address;
  /** Per-payment cap for the x402 client's spend controls, in base units. */
  maxAmount: string;
};

/** The outcome of one paid request as the payer saw it. */
export type PaidResult = {
  /** HTTP status of the final response (0 when the request threw). */
  status: number;
  /** Wall time from the first request to the end of the final body, in milliseconds. */
  ms: number;
  /**
   * The legs of a paid request: the unpaid request until its 402 headers, creating the payment (decode,
   * policy, RPC reads, signing; for self-transfer also the burn and its receipt), and the paid retry until
   * the end of the body (provider: verify, handler, settle).
   */
  legs?: { unpaidMs: number; createMs: number; paidMs: number };
  /** The settlement transaction from `PAYMENT-RESPONSE`. */
  transaction?: string;
  /** The settle failure reason from `PAYMENT-RESPONSE`. */
  errorReason?: string;
  /** The error when the request threw. */
  error?: string;
};

/** A request from the bench. */
export type PayerRequest =
  | { id: number; type: "setup"; setup: PayerSetup }
  | { id: number; type: "pay"; scheme: PayerScheme; privateKey: Hex; url: string }
  | { id: number; type: "prepare"; scheme: PayerScheme; privateKey: Hex; url: string }
  | { id: number; type: "sendPrepared"; items: { url: string; headers: Record<string, string> }[] };

/** A reply from the payer (`id` 0 is the unsolicited readiness message). */
export type PayerReply =
  | { id: number; type: "ready" }
  | { id: number; type: "ok" }
  | { id: number; type: "paid"; result: PaidResult }
  | { id: number; type: "prepared"; headers: Record<string, string>; paymentPayload: PaymentPayload; requirements: PaymentRequirements }
  | { id: number; type: "sent"; wallMs: number; results: PaidResult[] }
  | { id: number; type: "error"; message: string };
