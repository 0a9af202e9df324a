import { drawStartupFrame } from "../ui/startupFrame.js";
import { Command, Option } from "./clipanion.js";

/** `tui [url]`: the interactive payer, and the supervisor of headless agents' approvals. */
export class TuiCommand extends Command {
  static override paths = [["tui"]];

  static override usage = Command.Usage({
    description: "pay interactively, and answer other agents' approvals",
    details: `
      With a URL: shows the payer's address and balance, the offer (amount in token units, token, network, expiry countdown, mode), the policy's verdict, the caps with what remains; \`p\` or Enter pays, with an approval prompt (\`y\`/\`n\`) above \`SVC_APPROVE_ABOVE\` that names the amount, host and remaining cap and closes at the offer's last usable moment at the latest, then the payment's phases, then the resource or a clear error. \`r\` fetches a fresh offer; \`s\` re-sends a payment of unknown outcome.

      With or without a URL: pins the approvals headless agents in the same state folder are waiting on, announcing new ones; arrows select, \`a\` approves (after a confirmation), \`d\` denies. \`h\` shows the payer's payment history from the facilitator (needs \`SVC_FACILITATOR_URL\` and \`SVC_PAYER_PK\`). \`?\` lists every key. \`q\` quits (asking first while a prompt is undecided). \`NO_COLOR\` turns colours off. Keyboard only.

      Exit code: that of the last payment as for \`pay\` (6 after an HTTP error), 0 when nothing was paid, 130 on Ctrl-C or when quitting withdrew an undecided approval.
    `,
    examples: [
      ["Buy the demo weather report interactively", "$0 tui http://127.0.0.1:4021/weather"],
      ["Supervise headless agents", "$0 tui"],
    ],
  });

  url = Option.String({ name: "url", required: false });

  override async execute(): Promise<number> {
    const { stdin, stdout, env } = this.context;
    // https://no-color.org: any non-empty value turns colours off.
    const eraseStartupFrame = drawStartupFrame({ stdin, stdout, colors: (env.NO_COLOR ?? "") === "" });
    try {
      // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
      const { runTuiCommand } = await import("./tui.js");
      return await runTuiCommand(this, { beforeFirstRender: eraseStartupFrame });
    } finally {
      eraseStartupFrame();
    }
  }
}
