import type { HistoryPaymentView } from "@svc/scheme";

import type { Policy } from "../policy/policy.js";
import type { HistoryConfig } from "./loadHistoryConfig.js";
import { openPayerHistory, type PayerHistory } from "./openPayerHistory.js";

/** Renew the identity token this many seconds before it expires. */
const TOKEN_MARGIN_SECONDS = 30;

/**
 * A function that lists the payer's payments, logging in on first use and again only when the identity
 * token is about to expire (logins are rate-limited by the facilitator). For the TUI.
 */
export function createPayerHistoryReader(policy: Policy, config: HistoryConfig, now: () => number = Date.now): () => Promise<HistoryPaymentView[]> {
  let session: PayerHistory | undefined;
  return async () => {
    if (session === undefined || session.expiresAt - TOKEN_MARGIN_SECONDS <= Math.floor(now() / 1000)) {
      session = await openPayerHistory({ policy, config });
    }
    return session.client.listPayments(session.token);
  };
}
