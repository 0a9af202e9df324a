import { listPendingApprovals } from "../../approvals/listPendingApprovals.js";
import { readAmountFormats } from "../../payment/amountFormat.js";
import { loadPolicy } from "../../policy/loadPolicy.js";
import { EXIT_OK } from "../exitCodes.js";
import { writeJsonLine, writeLine } from "../writeLine.js";
import type { ApprovalsListCommand } from "./listCommand.js";

/** Runs `ApprovalsListCommand` as parsed into `command`; returns the exit code. */
export async function runApprovalsList(command: ApprovalsListCommand): Promise<number> {
  const { stdout, env } = command.context;
  const policy = loadPolicy(env);
  const pending = await listPendingApprovals(policy.stateDir);
  if (command.json) {
    for (const request of pending) {
      // Every time as ISO 8601, like `createdAt`: no mix of seconds, milliseconds and strings.
      writeJsonLine(stdout, {
        ...request,
        amount: request.amount.toString(),
        offerExpiresAt: new Date(request.offerExpiresAt * 1000).toISOString(),
        decideBy: new Date(request.decideBy).toISOString(),
      });
    }
    return EXIT_OK;
  }
  if (pending.length === 0) writeLine(stdout, "no pending approvals");
  const formatFor = await readAmountFormats(
    policy,
    pending.map((request) => request.asset),
    { baseUnits: command.baseUnits },
  );
  for (const request of pending) {
    const format = formatFor(request.asset);
    const seconds = Math.max(0, Math.ceil((request.decideBy - Date.now()) / 1000));
    writeLine(
      stdout,
      `${request.id}  ${format(request.amount)} to ${new URL(request.url).host} (above ${format(request.threshold)}), ${request.network} token ${request.asset}, ${request.mode}, ${request.url}, ${seconds} s left to decide`,
    );
  }
  return EXIT_OK;
}
