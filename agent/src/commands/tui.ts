import { loadHistoryConfig } from "../history/loadHistoryConfig.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { BINARY_NAME } from "./binaryName.js";
import { Command, Option, UsageError } from "./clipanion.js";
import { parseUrlArgument } from "./parseUrlArgument.js";

/** `tui [url]`: the interactive payer, and the supervisor of headless agents' approvals. */
export class TuiCommand extends Command {
  static override paths = [["tui"]];

  static override usage = Command.Usage({
    description: "pay interactively, and answer other agents' approvals",
    details: `
      With a URL: shows its offer (amount in token and base units, token, network, expiry countdown, mode), the policy's verdict, the caps and spend so far; \`p\` or Enter pays, with an inline approval prompt (\`y\`/\`n\`) above \`SVC_APPROVE_ABOVE\`, and the payment's phases as they happen, then the resource or a clear error. \`r\` fetches a fresh offer.

      With or without a URL: lists the approvals headless agents are waiting on in the same state folder; arrows select, \`a\` approves, \`d\` denies. \`h\` shows the payer's payment history from the facilitator (needs \`SVC_FACILITATOR_URL\` and \`SVC_PAYER_PK\`). \`q\` quits. Keyboard only.

      Exit code: that of the last payment as for \`pay\`, or 0 when nothing was paid.
    `,
    examples: [
      ["Buy the demo weather report interactively", "$0 tui http://127.0.0.1:4021/weather"],
      ["Supervise headless agents", "$0 tui"],
    ],
  });

  url = Option.String({ name: "url", required: false });

  override async execute(): Promise<number> {
    const { stdin, stdout, env } = this.context;
    const url = this.url === undefined ? undefined : parseUrlArgument(this.url);
    const policy = loadPolicy(env);
    const history = loadHistoryConfig(env);
    if (Reflect.get(stdin, "isTTY") !== true) throw new UsageError(`tui needs an interactive terminal; scripts use \`${BINARY_NAME} pay --json\``);
    // Loaded here, not at the top: Ink and React take a noticeable share of start-up, and only `tui` needs them.
    const { runTui } = await import("../ui/runTui.js");
    return runTui({ policy, url, binaryName: BINARY_NAME, stdin, stdout, history });
  }
}
