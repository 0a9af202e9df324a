/**
 * Reads one payment's withdrawal witness from a running daemon's admin API for `facilitator
 * withdrawal-witness`. The answer holds the burn secret: it is parsed and handed back, never logged, and no
 * error quotes it.
 */
import type { Hex } from "viem";
import { redactUrl } from "../config/redactUrl.js";
import { AdminTokenRejectedError, DaemonUnreachableError, UnknownPaymentError } from "./errors.js";
import { type WithdrawalWitness, WithdrawalWitnessSchema } from "./withdrawalWitness.js";

/** Fetches the witness of `challengeNonce`; throws {@link DaemonUnreachableError}, {@link AdminTokenRejectedError} or {@link UnknownPaymentError}. */
export async function fetchWithdrawalWitness(params: {
  url: string;
  adminToken: string | undefined;
  challengeNonce: Hex;
  timeoutMs: number;
}): Promise<WithdrawalWitness> {
  const base = params.url.replace(/\/+$/, "");
  const shown = redactUrl(base).replace(/\/+$/, "");
  const headers: Record<string, string> = params.adminToken === undefined ? {} : { authorization: `Bearer ${params.adminToken}` };
  let response: Response;
  try {
    response = await fetch(`${base}/admin/withdrawal-witness/${params.challengeNonce}`, {
      headers,
      signal: AbortSignal.timeout(params.timeoutMs),
      redirect: "manual",
    });
  } catch (cause) {
    throw new DaemonUnreachableError({ url: shown, problem: "no answer (is the daemon running?)", cause });
  }
  if (response.status === 401) throw new AdminTokenRejectedError({ tokenSet: params.adminToken !== undefined });
  if (response.status === 404) throw new UnknownPaymentError({ challengeNonce: params.challengeNonce });
  if (response.status !== 200) throw new DaemonUnreachableError({ url: shown, problem: `the witness route answered HTTP ${response.status}` });
  const parsed = WithdrawalWitnessSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new DaemonUnreachableError({ url: shown, problem: "the witness route answered an unexpected body" });
  return parsed.data;
}
