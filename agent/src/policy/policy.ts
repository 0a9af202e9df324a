import type { Address, Network, PaymentMode } from "@svc/scheme";
import type { Hex } from "viem";

import type { SpendAmount } from "./spendAmount.js";

/**
 * The payer's spending policy, read once from the environment by `loadPolicy`. Everything the agent may
 * sign, send or spend is decided from this value; nothing is read from the environment later.
 */
export type Policy = {
  /** The paying account's key; absent when only quoting. */
  payerKey: Hex | undefined;
  /** EVM RPC for reads and, in self-transfer mode, the burn broadcast. */
  rpcUrl: string;
  mode: PaymentMode;
  /** Timeout of each HTTP exchange with a provider, in milliseconds. */
  timeoutMs: number;
  /** Lower-case host names a request may go to, or `"*"` for any host. */
  allowedHosts: "*" | readonly string[];
  /** The only network an offer may be on. */
  allowedNetwork: Network;
  /** The only token an offer may be in, or any token when unset. */
  allowedToken: Address | undefined;
  /** Largest single payment, in each token's units unless written in base units. */
  maxPerPayment: SpendAmount | undefined;
  /** Largest total spend per network and token. */
  maxTotal: SpendAmount | undefined;
  /** Largest spend per network and token within a rolling hour, 24 hours, 7 days and 30 days. */
  maxPerHour: SpendAmount | undefined;
  maxPerDay: SpendAmount | undefined;
  maxPerWeek: SpendAmount | undefined;
  maxPerMonth: SpendAmount | undefined;
  /** Largest total spend per network and token on one host (the URL's host name). */
  maxPerHost: SpendAmount | undefined;
  /** Largest spend per network and token within one run of the MCP server. */
  maxPerMcpSession: SpendAmount | undefined;
  /** Quotes above this amount wait for a human; unset turns approval off. */
  approveAbove: SpendAmount | undefined;
  /** How long a quote waits for a human decision before it is declined. */
  approvalTimeoutMs: number;
  /** Folder of the spend ledger and the approval files. */
  stateDir: string;
};
