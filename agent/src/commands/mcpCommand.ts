import { Command } from "./clipanion.js";

/** `mcp`: the agent as an MCP server on stdio, for AI agents; the same policy, ledger and approvals as `pay`. */
export class McpCommand extends Command {
  static override paths = [["mcp"]];

  static override usage = Command.Usage({
    description: "serve the payer to an AI agent over MCP (stdio)",
    details: `
      Speaks the Model Context Protocol on stdin and stdout until the client closes them. Tools: \`quote_resource\`, \`fetch_resource\` (pays under the policy; above \`SVC_APPROVE_ABOVE\` it answers \`approval_required\` at once), \`payment_status\` (waits at most 25 s for the human's decision), \`resend_payment\`, \`spending_status\`, \`payer_info\` (address, balance, limits). Configured by the same \`SVC_*\` variables as \`pay\` and sharing its state folder, so caps hold across this server and any CLI agent, and payments above \`SVC_APPROVE_ABOVE\` wait for a human in \`tui\` or \`approvals approve\`, so no call outlives a client's default request timeout. The key never leaves this process. Diagnostics go to stderr.
    `,
    examples: [["Register with an MCP client", "SVC_PAYER_PK=0x... SVC_MAX_TOTAL=0.01 $0 mcp"]],
  });

  override async execute(): Promise<number> {
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runMcp } = await import("./mcp.js");
    return runMcp(this);
  }
}
