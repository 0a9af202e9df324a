import { requestApproval } from "../approvals/requestApproval.js";
import { Ledger } from "../ledger/ledger.js";
import { amountFormat, BASE_UNITS_FORMAT } from "../payment/amountFormat.js";
import { payUrl } from "../payment/payUrl.js";
import { readTokenInfo } from "../payment/tokenInfo.js";
import { PayerKeyMissingError } from "../policy/errors.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { BINARY_NAME } from "./binaryName.js";
import { describeOutcome } from "./describeOutcome.js";
import { describePayEvent } from "./describePayEvent.js";
import { exitCodeFor } from "./exitCodes.js";
import { outcomeJson } from "./outcomeJson.js";
import { parseUrlArgument } from "./parseUrlArgument.js";
import { writeJsonLine, writeLine } from "./writeLine.js";
import type { PayCommand } from "./payCommand.js";

/** Runs `PayCommand` as parsed into `command`; returns the exit code. */
export async function runPay(command: PayCommand): Promise<number> {
  const { stdout, stderr, env } = command.context;
  const url = parseUrlArgument(command.url);
  const policy = loadPolicy(env);
  // Before the first request: asking for an offer makes the facilitator spend a one-time burn address.
  if (policy.payerKey === undefined) throw new PayerKeyMissingError();
  let format = BASE_UNITS_FORMAT;
  // Ctrl-C while a human is being asked withdraws the request and releases the reservation instead of
  // leaving it to count against the cap; at any other moment the default (exit at once) applies.
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort();
  const outcome = await payUrl({
    url,
    policy,
    ledger: new Ledger(policy.stateDir),
    readToken: (asset) => readTokenInfo(policy, asset),
    baseUnits: command.baseUnits,
    approve: async (request) => {
      try {
        return await requestApproval({ stateDir: policy.stateDir, request, signal: interrupted.signal });
      } finally {
        process.off("SIGINT", interrupt).off("SIGTERM", interrupt);
      }
    },
    onEvent: (event) => {
      if (event.type === "quoted") format = amountFormat(event.token, { baseUnits: command.baseUnits });
      // Armed before the hint below is printed: a Ctrl-C by whoever read it must find the handler in place.
      if (event.type === "approval-pending") process.once("SIGINT", interrupt).once("SIGTERM", interrupt);
      // The approval hint goes out in --json mode too: a supervisor has to learn the id somewhere.
      if (command.json && event.type !== "approval-pending") return;
      const line = describePayEvent(event, BINARY_NAME, format);
      if (line !== undefined) writeLine(stderr, line);
    },
  });
  if (command.json) {
    writeJsonLine(stdout, outcomeJson(outcome));
  } else {
    writeLine(stderr, describeOutcome(outcome, format));
    if (outcome.kind === "paid" || outcome.kind === "not-required") {
      const { body } = outcome.resource;
      stdout.write(body.endsWith("\n") || body === "" ? body : `${body}\n`);
    }
  }
  return exitCodeFor(outcome);
}
