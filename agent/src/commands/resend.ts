import { Ledger } from "../ledger/ledger.js";
import { amountFormat, BASE_UNITS_FORMAT } from "../payment/amountFormat.js";
import { resendPayment } from "../payment/resendPayment.js";
import { readTokenInfo } from "../payment/tokenInfo.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { BINARY_NAME } from "./binaryName.js";
import { describeOutcome } from "./describeOutcome.js";
import { describePayEvent } from "./describePayEvent.js";
import { exitCodeFor } from "./exitCodes.js";
import { outcomeJson } from "./outcomeJson.js";
import { writeJsonLine, writeLine } from "./writeLine.js";
import type { ResendCommand } from "./resendCommand.js";

/** Runs `ResendCommand` as parsed into `command`; returns the exit code. */
export async function runResend(command: ResendCommand): Promise<number> {
  const { stdout, stderr, env } = command.context;
  const policy = loadPolicy(env);
  let format = BASE_UNITS_FORMAT;
  const outcome = await resendPayment({
    id: command.id,
    policy,
    ledger: new Ledger(policy.stateDir),
    onEvent: (event) => {
      const line = command.json ? undefined : describePayEvent(event, BINARY_NAME, format);
      if (line !== undefined) writeLine(stderr, line);
    },
  });
  if (command.json) {
    writeJsonLine(stdout, outcomeJson(outcome));
  } else {
    if (outcome.kind !== "not-required" && outcome.kind !== "http-error" && outcome.offer !== undefined) {
      format = amountFormat(await readTokenInfo(policy, outcome.offer.asset), { baseUnits: command.baseUnits });
    }
    writeLine(stderr, describeOutcome(outcome, format));
    if (outcome.kind === "paid") stdout.write(outcome.resource.body.endsWith("\n") ? outcome.resource.body : `${outcome.resource.body}\n`);
  }
  return exitCodeFor(outcome);
}
