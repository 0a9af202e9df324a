import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import type { ApprovalResult } from "../approvals/requestApproval.js";
import type { Quote } from "./quote.js";
import type { TokenInfo } from "./tokenInfo.js";

/** The payment phases a UI shows, in order; self-transfer adds `broadcasting` and `waiting-for-receipt`. */
export type PaymentPhase = "signing" | "broadcasting" | "waiting-for-receipt" | "verifying" | "settled";

/** Progress of one payment as it happens, for the CLI's stderr lines and the TUI. */
export type PayEvent =
  /** `token` is the offer's token symbol and decimals when the chain could tell them. */
  | { type: "quoted"; quote: Quote; token: TokenInfo | undefined }
  | { type: "reserved"; id: string; spentBefore: string }
  | { type: "approval-pending"; request: ApprovalRequest }
  | { type: "approval-decided"; id: string; result: ApprovalResult }
  | { type: "phase"; id: string; phase: PaymentPhase; txHash?: `0x${string}` | undefined };

/** Receives progress events; must not throw. */
export type OnPayEvent = (event: PayEvent) => void;
