/**
 * `facilitator export --config <path> [--out <file>]` and `facilitator import --config <path> --in <file>`: a
 * backup of the state the configuration names (the journal file and `PAYMENT_HISTORY_PATH`, or the `[storage]`
 * database) that restores into either storage (storage/stateBackup.ts). Export only reads, so it may run
 * beside a daemon; import writes only into an empty state, under the journal's lock. Exit codes: 0 done,
 * 1 a problem, 2 usage.
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type pg from "pg";
import { UsageError } from "./clipanion.js";

import type { Environment } from "../config/index.js";
import { readConfigToml } from "../config/loadConfig.js";
import { parseConfig } from "../config/parseConfig.js";
import { assertSchemaCurrent } from "../storage/postgresMigrations.js";
import { formatBackup, parseBackup, readState, type StateBackup, StateBackupError, type StateLocation, writeState } from "../storage/stateBackup.js";
import { connectStorageDatabase } from "../storage/storageConnection.js";
import { describeError } from "./describeError.js";
import { redactOutput } from "./redactOutput.js";

/** Parameters of {@link runBackup}. */
export type RunBackupParameters = {
  direction: "export" | "import";
  configPath: string;
  /** `--out` for export (standard output when absent), `--in` for import. */
  file: string | undefined;
  env: Environment;
  write: (text: string) => void;
  writeError: (text: string) => void;
};

/** Runs an export or an import and returns the exit code. */
export async function runBackup(parameters: RunBackupParameters): Promise<number> {
  const { env } = parameters;
  let pool: pg.Pool | undefined;
  try {
    const config = parseConfig(await readConfigToml(parameters.configPath), { configDir: dirname(resolve(parameters.configPath)) });
    let location: StateLocation;
    if (config.storage !== undefined) {
      pool = await connectStorageDatabase(config.storage, env);
      await assertSchemaCurrent(pool);
      location = { kind: "postgres", pool };
    } else if (config.settlement.journal === null || config.settlement.journal === undefined) {
      throw new StateBackupError('settlement.journal is "none": there is no state to back up or restore');
    } else {
      const historyPath = env.PAYMENT_HISTORY_PATH === undefined || env.PAYMENT_HISTORY_PATH === "" ? undefined : env.PAYMENT_HISTORY_PATH;
      location = { kind: "file", journalPath: config.settlement.journal, historyPath };
    }
    if (parameters.direction === "export") {
      const backup = await readState(location);
      const text = formatBackup(backup);
      // The journal holds signed relay transactions: readable by the operator alone.
      if (parameters.file === undefined) parameters.write(text);
      else await writeFile(parameters.file, text, { mode: 0o600, flag: "wx" });
      parameters.writeError(`exported ${summary(backup)}\n`);
    } else {
      const backup = parseBackup(await readFile(parameters.file as string, "utf8"));
      await writeState(location, backup);
      parameters.write(`imported ${summary(backup)}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    parameters.writeError(`${redactOutput(`facilitator ${parameters.direction}: ${describeError(error)}`, env)}\n`);
    return 1;
  } finally {
    await pool?.end();
  }
}

function summary(backup: StateBackup): string {
  const chain = backup.chain === null ? "no chain recorded" : `chain ${backup.chain.chainId}, genesis ${backup.chain.genesisHash}`;
  return `${backup.challenges.length} challenges, ${backup.journal.length} journal records, ${backup.history.length} history records (${chain})`;
}
