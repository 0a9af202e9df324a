/**
 * The `status` command's definition: its path, usage and options, light enough that help and usage load no
 * HTTP client. The work is `runStatus` in `status.ts` and `watchStatus` in `watchStatus.ts`, imported when the
 * command runs.
 */
import { Command, Option, UsageError } from "./clipanion.js";

/** Failed entries and late burns listed by default. */
export const DEFAULT_STATUS_LIMIT = 20;

/** Seconds between two reads unless `--interval` says otherwise. */
export const DEFAULT_WATCH_INTERVAL_SECONDS = 2;

/** The `status` command. */
export class StatusCommand extends Command {
  static override paths = [["status"]];

  static override usage = Command.Usage({
    description: "summarise a running facilitator daemon through its admin API",
    details: `
      Reads \`/readyz\`, \`/admin/status\` and the failed and late-burn pages of \`/admin/settlements\` from the daemon the configuration describes (\`listen.host\`, \`listen.port\`), with the admin token from \`SVC_ADMIN_TOKEN\`. Prints readiness (and the failing components), the backlog per state with the age of its oldest entry, open challenges, failed entries with their reasons, late burns, the burn-address stock (ready, deriving, the target size within its floor and ceiling, the offer and derivation rates per second, and how long the ready stock lasts at the current rate), the Poseidon implementation and search path, and the relayer and treasury balances.

      With \`--watch\` it reads again every \`--interval\` seconds until Ctrl-C: on a terminal each read redraws the screen in place, piped each read follows the last under its time, and with \`--json\` each read is one JSON line (\`at\` and the status, or \`error\` when the daemon could not be read; the next read tries again).

      Exits 0 when the daemon is ready, 1 when it is not ready or cannot be read, 2 for usage mistakes; a watch exits 0 when stopped.
    `,
    examples: [
      ["Status of the local stack's daemon", "$0 status --config .stack/facilitator.toml"],
      ["Machine-readable", "$0 status --config facilitator.toml --json"],
      ["Live, redrawn every 2 s until Ctrl-C", "$0 status --config .stack/facilitator.toml --watch"],
      ["A daemon behind another address", "$0 status --config facilitator.toml --url http://10.0.0.5:4032"],
    ],
  });

  config = Option.String("--config", { required: true, description: "path of the facilitator TOML configuration file" });

  url = Option.String("--url", { description: "the daemon's base URL (default: from listen.host and listen.port)" });

  limit = Option.String("--limit", { description: `failed entries and late burns to list (default ${DEFAULT_STATUS_LIMIT}, at most 1000)` });

  json = Option.Boolean("--json", false, { description: "print one JSON object instead of the summary (with --watch: one line per read)" });

  watch = Option.Boolean("--watch", false, { description: "read again every interval until Ctrl-C, redrawn in place on a terminal" });

  interval = Option.String("--interval", { description: `seconds between two reads with --watch (default ${DEFAULT_WATCH_INTERVAL_SECONDS}, 0.5 to 3600)` });

  override async execute(): Promise<number> {
    if (this.config.trim() === "") throw new UsageError("--config needs the path of a TOML file");
    if (this.url !== undefined && !(URL.canParse(this.url) && ["http:", "https:"].includes(new URL(this.url).protocol))) {
      throw new UsageError("--url must be an http(s) URL");
    }
    if (this.interval !== undefined && !this.watch) throw new UsageError("--interval needs --watch");
    if (this.watch) return this.watchUntilStopped();
    const { runStatus } = await import("./status.js");
    return runStatus({
      configPath: this.config,
      env: this.context.env,
      url: this.url,
      limit: parseLimit(this.limit),
      format: this.json ? "json" : "text",
      write: (text) => this.context.stdout.write(text),
      writeError: (text) => this.context.stderr.write(text),
    });
  }

  // Ctrl-C and SIGTERM end the watch with exit code 0: stopping it is how it is meant to end.
  private async watchUntilStopped(): Promise<number> {
    const { watchStatus } = await import("./watchStatus.js");
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      return await watchStatus({
        configPath: this.config,
        env: this.context.env,
        url: this.url,
        limit: parseLimit(this.limit),
        format: this.json ? "json" : "text",
        intervalMs: parseInterval(this.interval),
        inPlace: !this.json && (this.context.stdout as { isTTY?: boolean }).isTTY === true,
        signal: stop.signal,
        write: (text) => this.context.stdout.write(text),
        writeError: (text) => this.context.stderr.write(text),
      });
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  }
}

function parseInterval(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_WATCH_INTERVAL_SECONDS * 1000;
  const seconds = Number(raw);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(raw) || seconds < 0.5 || seconds > 3600) throw new UsageError("--interval must be a number of seconds from 0.5 to 3600");
  return Math.round(seconds * 1000);
}

function parseLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^[0-9]+$/.test(raw) || value < 1 || value > 1000) throw new UsageError("--limit must be a whole number from 1 to 1000");
  return value;
}
