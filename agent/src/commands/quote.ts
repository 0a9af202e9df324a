import { toNetwork } from "@svc/scheme";

import { HostNotAllowedError } from "../http/errors.js";
import { Ledger } from "../ledger/ledger.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { httpErrorOutcome } from "../payment/httpErrorOutcome.js";
import { fetchQuote } from "../payment/quote.js";
import { quoteVerdict } from "../payment/quoteVerdict.js";
import { formatAmount } from "../payment/tokenInfo.js";
import { describeSpendAmount } from "../policy/spendAmount.js";
import { amountFormat } from "../payment/amountFormat.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { EXIT_DECLINED, EXIT_HTTP_ERROR, EXIT_OK } from "./exitCodes.js";
import { parseUrlArgument } from "./parseUrlArgument.js";
import { writeJsonLine, writeLine } from "./writeLine.js";
import type { QuoteCommand } from "./quoteCommand.js";

/** Runs `QuoteCommand` as parsed into `command`; returns the exit code. */
export async function runQuote(command: QuoteCommand): Promise<number> {
  const { stdout, env } = command.context;
  const url = parseUrlArgument(command.url);
  const policy = loadPolicy(env);
  let result;
  try {
    result = await fetchQuote({ url, policy });
  } catch (error) {
    if (!(error instanceof HostNotAllowedError)) throw error;
    if (command.json) writeJsonLine(stdout, { result: "declined", reason: "host_not_allowed", message: error.shortMessage });
    else writeLine(stdout, `declined by policy (host_not_allowed): ${error.shortMessage}`);
    return EXIT_DECLINED;
  }
  if (result.kind === "not-required") {
    if (command.json) writeJsonLine(stdout, { result: "not_required", status: result.response.status });
    else writeLine(stdout, `no payment required: ${url.href} answered HTTP ${result.response.status}`);
    return EXIT_OK;
  }
  if (result.kind === "http-error") {
    const outcome = httpErrorOutcome(result.response);
    if (command.json) writeJsonLine(stdout, { result: "http_error", status: outcome.status, message: outcome.message });
    else writeLine(stdout, `request failed: ${outcome.message}`);
    return EXIT_HTTP_ERROR;
  }
  if (result.kind === "no-offer") {
    if (command.json) writeJsonLine(stdout, { result: "declined", reason: "no_scheme_offer", message: result.message });
    else writeLine(stdout, `declined by policy (no_scheme_offer): ${result.message}`);
    return EXIT_DECLINED;
  }
  const { quote } = result;
  const { offer } = quote;
  const { token } = quote;
  const format = amountFormat(token);
  const verdict = await quoteVerdict(quote, policy, new Ledger(policy.stateDir), format);
  if (command.json) {
    writeJsonLine(stdout, { result: "offer", url: quote.url.href, offer: quote.requirements, token: token ?? null, mode: policy.mode, policy: verdict });
  } else {
    const secondsLeft = Math.floor(offer.expiresAt - Date.now() / 1000);
    const lines = [
      `offer for ${quote.url.href}`,
      `  amount   ${formatAmount(offer.amount, token)}`,
      ...(offer.fee === undefined ? [] : [`  fee      ${formatAmount(offer.fee.amount, token)} (${offer.fee.bps} bps), included in the amount`]),
      `  token    ${offer.asset}`,
      `  network  ${toNetwork(offer.chainId)}`,
      `  pay to   ${offer.payTo} (one-time burn address)`,
      `  expires  ${new Date(offer.expiresAt * 1000).toISOString()} (${secondsLeft > 0 ? `in ${secondsLeft} s` : "expired"})`,
      `  paths    ${offer.helper === undefined ? "self-transfer only" : "permit (gasless) or self-transfer"}`,
      `  mode     ${policy.mode} (SVC_MODE)`,
      `  spend    ${format(verdict.spent)} so far on this network and token${verdict.cap === undefined ? " (no SVC_MAX_TOTAL)" : ` of ${format(verdict.cap)} (SVC_MAX_TOTAL), remaining ${format(remainingUnder(verdict.cap, verdict.spent))}`}`,
      `  policy   ${verdict.kind === "declined" ? `declined (${verdict.reason}): ${verdict.message}` : verdict.needsApproval ? `allowed, needs human approval (above SVC_APPROVE_ABOVE ${policy.approveAbove === undefined ? format("0") : describeSpendAmount(policy.approveAbove, token)})` : "allowed"}`,
    ];
    for (const line of lines) writeLine(stdout, line);
  }
  return verdict.kind === "declined" ? EXIT_DECLINED : EXIT_OK;
}
