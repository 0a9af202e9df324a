import { listPendingApprovals } from "../../approvals/listPendingApprovals.js";
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
      Lists the pending approvals in the state folder: payments above \`SVC_APPROVE_ABOVE\` whose agent is still waiting. Answer one with \`approvals approve <id>\` or \`approvals deny <id>\`, or in \`tui\`.
    `,
    examples: [["Pending approvals", "$0 approvals"]],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object per pending approval" });

  override async execute(): Promise<number> {
    const { stdout, env } = this.context;
    const policy = loadPolicy(env);
    const pending = await listPendingApprovals(policy.stateDir);
    if (this.json) {
      for (const request of pending) writeJsonLine(stdout, { ...request });
      return EXIT_OK;
    }
    if (pending.length === 0) writeLine(stdout, "no pending approvals");
    for (const request of pending) {
      const seconds = Math.max(0, Math.ceil((request.decideBy - Date.now()) / 1000));
      writeLine(stdout, `${request.id}  ${request.amount} base units of ${request.asset} on ${request.network} (above ${request.threshold}), ${request.mode}, ${request.url}, ${seconds} s left to decide`);
    }
    return EXIT_OK;
  }
}
