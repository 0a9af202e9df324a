/**
 * The `import` command's definition: its path, usage and options, light enough that help and usage load no
 * storage. The work is `runBackup` in `backup.ts`, imported when the command runs.
 */
import { Command, Option, UsageError } from "./clipanion.js";

/** The `import` command. */
export class ImportCommand extends Command {
  static override paths = [["import"]];

  static override usage = Command.Usage({
    description: "restore a backup written by export into an empty state",
    details: `
      Writes the backup into the state the configuration names: a \`settlement.journal\` file that does not exist yet (under its lock; history into \`PAYMENT_HISTORY_PATH\`, required when the backup holds history), or an empty, migrated \`[storage]\` database in one transaction. A state that holds anything is refused and left as it was. The chain identity comes with the backup, so the daemon started next refuses another chain.

      Exits 0 when restored, 1 on a problem, 2 for usage mistakes.
    `,
    examples: [["Restore onto a new database", "$0 import --config facilitator.toml --in backup.jsonl"]],
  });

  config = Option.String("--config", { required: true, description: "path of the facilitator TOML configuration file" });

  in = Option.String("--in", { required: true, description: "the backup file written by export" });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    if (this.in.trim() === "") throw new UsageError("--in needs the path of a backup file");
    const { runBackup } = await import("./backup.js");
    return runBackup({
      direction: "import",
      configPath: this.config,
      file: this.in,
      env: this.context.env,
      write: (text) => this.context.stdout.write(text),
      writeError: (text) => this.context.stderr.write(text),
    });
  }
}
