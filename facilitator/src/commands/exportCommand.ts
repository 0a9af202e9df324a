/**
 * The `export` command's definition: its path, usage and options, light enough that help and usage load no
 * storage. The work is `runBackup` in `backup.ts`, imported when the command runs.
 */
import { Command, Option, UsageError } from "./clipanion.js";

/** The `export` command. */
export class ExportCommand extends Command {
  static override paths = [["export"]];

  static override usage = Command.Usage({
    description: "write a backup of the facilitator's state (journal, challenges, history, chain identity)",
    details: `
      Reads the state the configuration names, the \`settlement.journal\` file (and \`PAYMENT_HISTORY_PATH\` when set) or the \`[storage]\` database, without writing to it: it may run beside a daemon. Writes JSON lines to \`--out\` (created with mode 0600; an existing file is refused) or to standard output; the summary goes to standard error. \`import\` restores the backup into either storage.

      Exits 0 when written, 1 on a problem, 2 for usage mistakes.
    `,
    examples: [["Back up a daemon's state", "$0 export --config facilitator.toml --out backup.jsonl"]],
  });

  config = Option.String("--config", { required: true, description: "path of the facilitator TOML configuration file" });

  out = Option.String("--out", { description: "the backup file to create (default: standard output)" });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    const { runBackup } = await import("./backup.js");
    return runBackup({
      direction: "export",
      configPath: this.config,
      file: this.out,
      env: this.context.env,
      write: (text) => this.context.stdout.write(text),
      writeError: (text) => this.context.stderr.write(text),
    });
  }
}
