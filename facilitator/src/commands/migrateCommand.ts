/**
 * The `migrate` command's definition: its path, usage and options, light enough that help and usage load no
 * database driver. The work is `runMigrate` in `migrate.ts`, imported when the command runs.
 */
import { Command, Option, UsageError } from "./clipanion.js";

/** The `migrate` command. */
export class MigrateCommand extends Command {
  static override paths = [["migrate"]];

  static override usage = Command.Usage({
    description: "bring the [storage] PostgreSQL database's schema to this facilitator's version",
    details: `
      Reads \`[storage]\` from the configuration file and the password from \`SVC_STORAGE_PASSWORD\`, then applies the numbered migrations the database lacks, each once and in its own transaction. Safe to run again and from several machines at once. \`check\` reports the schema version; \`start\` refuses a database that is not current.

      Exits 0 when the schema is current, 1 on a problem (no \`[storage]\`, database unreachable, a migration failing), 2 for usage mistakes.
    `,
    examples: [["Migrate before starting the instances", "$0 migrate --config facilitator.toml"]],
  });

  config = Option.String("--config", { required: true, description: "path of the facilitator TOML configuration file" });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    const { runMigrate } = await import("./migrate.js");
    return runMigrate({
      configPath: this.config,
      env: this.context.env,
      write: (text) => this.context.stdout.write(text),
      writeError: (text) => this.context.stderr.write(text),
    });
  }
}
