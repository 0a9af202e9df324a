import { createHistoryClient, type HistoryClient, HistoryRequestError } from "@svc/scheme";
import { privateKeyToAccount } from "viem/accounts";

import { HostNotAllowedError } from "../http/errors.js";
import { isHostAllowed } from "../policy/isHostAllowed.js";
import type { Policy } from "../policy/policy.js";
import { createAllowlistedFetch } from "./createAllowlistedFetch.js";
import { FacilitatorUrlMissingError, HistoryDisabledError, HistoryKeyMissingError } from "./errors.js";
import type { HistoryConfig } from "./loadHistoryConfig.js";

/** Inputs to `openPayerHistory`. */
export type OpenPayerHistoryParameters = {
  policy: Policy;
  config: HistoryConfig;
  /** Injected for tests; defaults to the global `fetch` (always behind the allowlist). */
  fetch?: typeof fetch | undefined;
};

/** A logged-in payer: the history client and its identity token. */
export type PayerHistory = { client: HistoryClient; token: string; expiresAt: number };

/**
 * Logs in to the facilitator's payment history as subject `payer`, signing the login message with
 * `SVC_PAYER_PK` (EIP-191 personal-sign). Every request passes the host allowlist first. Throws
 * `FacilitatorUrlMissingError`, `HistoryKeyMissingError`, `HostNotAllowedError`, `HistoryDisabledError` or the scheme's
 * `HistoryRequestError`.
 *
 * @example
 * const { client, token } = await openPayerHistory({ policy, config: loadHistoryConfig(env) });
 * const payments = await client.listPayments(token);
 */
export async function openPayerHistory(parameters: OpenPayerHistoryParameters): Promise<PayerHistory> {
  const { policy, config } = parameters;
  if (config.facilitatorUrl === undefined) throw new FacilitatorUrlMissingError();
  if (policy.payerKey === undefined) throw new HistoryKeyMissingError();
  // Checked here too (the fetch checks every request) so the refusal is not reported as an unreachable host.
  if (!isHostAllowed(policy.allowedHosts, config.facilitatorUrl)) throw new HostNotAllowedError({ url: config.facilitatorUrl });
  const account = privateKeyToAccount(policy.payerKey);
  const client = createHistoryClient({
    facilitatorUrl: config.facilitatorUrl.href,
    fetch: createAllowlistedFetch(policy.allowedHosts, parameters.fetch),
    timeoutMs: policy.timeoutMs,
  });
  try {
    const { token, expiresAt } = await client.login({
      subject: "payer",
      signMessage: (message) => account.signMessage({ message }),
      expectedDomain: config.loginDomain,
    });
    return { client, token, expiresAt };
  } catch (error) {
    // The login route exists whenever history is on, so a 404 there can only mean it is off.
    if (error instanceof HistoryRequestError && error.failure.kind === "refused" && error.failure.status === 404) throw new HistoryDisabledError();
    throw error;
  }
}
