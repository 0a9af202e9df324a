import { Command, Option } from "./clipanion.js";

/** `limits`: each configured spend limit with what it has counted, what is left and when it frees up. */
export class LimitsCommand extends Command {
  static override paths = [["limits"]];

  static override usage = Command.Usage({
    description: "show each spend limit with what is left and when it frees up",
    details: `
      Reads the spend ledger in the state folder (\`SVC_STATE_DIR\`) and prints, per network and token, every configured ledger limit (\`SVC_MAX_TOTAL\`, the rolling windows \`SVC_MAX_PER_HOUR\`, \`SVC_MAX_PER_DAY\`, \`SVC_MAX_PER_WEEK\`, \`SVC_MAX_PER_MONTH\` (30 days), \`SVC_MAX_PER_HOST\` per host, \`SVC_MAX_PER_MCP_SESSION\` as a fresh session sees it): the limit, what it counts now, what is left, and for a window when its oldest counted payment leaves it. Amounts are in token units with the symbol (base units with \`--base-units\`, and always in \`--json\`).
    `,
    examples: [
      ["What is left under each limit", "$0 limits"],
      ["Machine-readable, one limit per line", "$0 limits --json"],
    ],
  });

  json = Option.Boolean("--json", false, { description: "print one JSON object per line instead of text" });

  baseUnits = Option.Boolean("--base-units", false, { description: "show amounts in base units beside token units" });

  override async execute(): Promise<number> {
    // The implementation, and the chain clients behind it, load only when this command runs.
    const { runLimits } = await import("./limits.js");
    return runLimits(this);
  }
}
