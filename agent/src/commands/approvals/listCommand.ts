import { Command, Option } from "../clipanion.js";

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
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runApprovalsList } = await import("./list.js");
    return runApprovalsList(this);
  }
}
