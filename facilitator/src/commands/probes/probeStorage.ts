/**
 * The `storage` probe: with `[storage]` set, `start` needs the database to answer and its schema to be the
 * version this facilitator was built for (`migrate` brings it there). The URL is printed redacted; the
 * password is never read back.
 */
import type { StorageConfig } from "../../config/facilitatorConfigSchema.js";
import type { Environment } from "../../config/parseSecrets.js";
import { redactUrl } from "../../config/redactUrl.js";
import { BaseError } from "../../errors/base.js";
import { LATEST_SCHEMA_VERSION, readSchemaVersion } from "../../storage/postgresMigrations.js";
import { connectStorageDatabase } from "../../storage/storageConnection.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** Connects to the configured database and compares its schema version with this facilitator's. */
export async function probeStorage(storage: StorageConfig, env: Environment): Promise<CheckFinding[]> {
  const list = new FindingList("storage");
  const url = redactUrl(storage.url);
  let pool;
  try {
    pool = await connectStorageDatabase(storage, env);
  } catch (error) {
    list.fail(error instanceof BaseError ? error.shortMessage : `storage database at ${url} is unreachable`);
    return list.findings;
  }
  try {
    const applied = await readSchemaVersion(pool);
    if (applied < LATEST_SCHEMA_VERSION) {
      list.fail(`${url}: schema at version ${applied}, this facilitator needs ${LATEST_SCHEMA_VERSION}: run \`svc-facilitator migrate --config <path>\``);
    } else if (applied > LATEST_SCHEMA_VERSION) {
      list.fail(`${url}: schema at version ${applied} is newer than this facilitator (${LATEST_SCHEMA_VERSION}): upgrade the facilitator`);
    } else {
      list.ok(`${url}: answers; schema at version ${applied}`);
    }
  } catch {
    list.fail(`${url}: the schema version could not be read`);
  } finally {
    await pool.end();
  }
  return list.findings;
}
