/**
 * How the configuration reaches the PostgreSQL database: the `[storage]` table names the server (a URL
 * without a password), the password comes from {@link STORAGE_PASSWORD_VARIABLE}. `start`, `migrate` and
 * `check` all connect through here, so they see the database alike.
 */
import type { JournalCompactionOptions } from "../journal/openSettlementJournal.js";
import type pg from "pg";
import type { StorageConfig } from "../config/facilitatorConfigSchema.js";
import type { Environment } from "../config/parseSecrets.js";
import { connectPostgres, openPostgresStorage } from "./openPostgresStorage.js";
import type { FacilitatorStorage } from "./storagePorts.js";

/** The environment variable holding the database password (empty counts as unset). */
export const STORAGE_PASSWORD_VARIABLE = "SVC_STORAGE_PASSWORD";

/** The database password from `env`, or `undefined` when the variable is unset or empty. */
export function storagePassword(env: Environment): string | undefined {
  const value = env[STORAGE_PASSWORD_VARIABLE];
  return value === undefined || value === "" ? undefined : value;
}

function connectionOptions(storage: StorageConfig, env: Environment) {
  const password = storagePassword(env);
  return { url: storage.url, variable: "storage.url", maxConnections: storage.max_connections, ...(password === undefined ? {} : { password }) };
}

/** Connects to the configured database and checks it answers; the schema is not checked (`migrate`, `check`). */
export function connectStorageDatabase(storage: StorageConfig, env: Environment): Promise<pg.Pool> {
  return connectPostgres(connectionOptions(storage, env));
}

/** Opens the PostgreSQL adapter on the configured database; refuses a schema that is not current. */
export function openStorageDatabase(storage: StorageConfig, env: Environment, compaction?: JournalCompactionOptions): Promise<FacilitatorStorage> {
  return openPostgresStorage({ ...connectionOptions(storage, env), compaction });
}
