import type { Hex } from "viem";

/**
 * A step of payload creation the payer plugin reports as it happens, so a UI can show progress and a ledger
 * can persist the burn hash before waiting on it: `broadcasting` carries the hash of the signed transfer
 * before it is sent, so a crash mid-broadcast still leaves a record of what may be on-chain.
 */
export type PaymentPhaseEvent = { phase: "signing" } | { phase: "broadcasting"; txHash: Hex } | { phase: "waiting-for-receipt"; txHash: Hex };

/** Receives phase events; the plugin waits for a returned promise before it goes on. */
export type OnPaymentPhase = (event: PaymentPhaseEvent) => void | Promise<void>;
