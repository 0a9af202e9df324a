/**
 * `facilitator migrate --config <path>`: brings the `[storage]` database's schema to the version this
 * facilitator needs, applying each missing numbered migration once (two instances migrating together
 * serialise on an advisory lock). Only the configuration file and `SVC_STORAGE_PASSWORD` are read: no key
 * is needed to migrate. Exit codes: 0 current (now or already), 1 a problem, 2 usage.
 */
import { dirname, resolve } from "node:path";

import type { Environment } from "../config/index.js";
import { readConfigToml } from "../config/loadConfig.js";
import { parseConfig } from "../config/parseConfig.js";
import { redactUrl } from "../config/redactUrl.js";
import { LATEST_SCHEMA_VERSION, migratePostgres } from "../storage/postgresMigrations.js";
import { connectStorageDatabase } from "../storage/storageConnection.js";
import { describeError } from "./describeError.js";
import { redactOutput } from "./redactOutput.js";

/** Parameters of {@link runMigrate}. */
export type RunMigrateParameters = {
  configPath: string;
  env: Environment;
  write: (text: string) => void;
  writeError: (text: string) => void;
};

/** Applies the missing migrations and returns the exit code (0 current, 1 a problem). */
export async function runMigrate({ configPath, env, write, writeError }: RunMigrateParameters): Promise<number> {
  const fail = (line: string) => {
    writeError(`${redactOutput(line, env)}\n`);
    return 1;
  };
  let storage;
  try {
    storage = parseConfig(await readConfigToml(configPath), { configDir: dirname(resolve(configPath)) }).storage;
  } catch (error) {
    return fail(describeError(error));
  }
  if (storage === undefined) return fail("no [storage] table in the configuration: the embedded storage has no schema to migrate");
  let pool;
  try {
    pool = await connectStorageDatabase(storage, env);
  } catch (error) {
    return fail(describeError(error));
  }
  try {
    const applied = await migratePostgres(pool);
    const url = redactUrl(storage.url);
    write(
      applied.length === 0
        ? `${url}: schema already at version ${LATEST_SCHEMA_VERSION}\n`
        : `${url}: applied ${applied.map((version) => `#${version}`).join(", ")}; schema at version ${LATEST_SCHEMA_VERSION}\n`,
    );
    return 0;
  } catch (error) {
    return fail(`migration failed: ${describeError(error)}`);
  } finally {
    await pool.end();
  }
}
