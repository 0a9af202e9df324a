import { listPendingApprovals } from "../../approvals/listPendingApprovals.js";
import { readAmountFormats } from "../../payment/amountFormat.js";
import { loadPolicy } from "../../policy/loadPolicy.js";
import { Command, Option } from "../clipanion.js";
import { EXIT_OK } from "../exitCodes.js";
import { writeJsonLine, writeLine } from "../writeLine.js";

/** `approvals` / `approvals list`: the quotes headless agents are waiting on a human for. */
export class ApprovalsListCommand extends Command {
  static override paths = [["approvals"], ["approvals", "list"]];

  static override usage = Command.Usage({
    description: "list payments waiting for human approval",
    details: `
      Lists the pending approvals in the state folder: payments above \`SVC_APPROVE_ABOVE\` whose agent is still waiting, with the amount in token units, the host that asked, and the time left to decide. Answer one with \`approvals approve <id>\` or \`approvals deny <id>\`, or in \`tui\`. \`--json\` gives base units and ISO 8601 times.
    `,
    examples: [["Pending approvals", "$0 approvals"]],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object per pending approval (base units, ISO 8601 times)" });

  baseUnits = Option.Boolean("--base-units", false, { description: "show amounts in base units beside token units" });

  override async execute(): Promise<number> {
    const { stdout, env } = this.context;
    const policy = loadPolicy(env);
    const pending = await listPendingApprovals(policy.stateDir);
    if (this.json) {
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
      { baseUnits: this.baseUnits },
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
}
