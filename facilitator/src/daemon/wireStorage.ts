/**
 * The daemon's one way to state: the embedded adapter (the journal file, memory) or, with `[storage]`,
 * PostgreSQL, where the state several instances share lives. Also names this process as the owner of the
 * claims and leases it takes there.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { Environment } from "../config/parseSecrets.js";
import { openEmbeddedStorage } from "../storage/openEmbeddedStorage.js";
import { openStorageDatabase } from "../storage/storageConnection.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import { unixNow } from "./unixNow.js";

/** What {@link wireStorage} reads. */
export type StorageParts = { config: FacilitatorConfig; env: Environment };

/** The opened storage; `storage.close` closes it. */
export type StorageWiring = {
  storage: FacilitatorStorage;
  /** This process as the owner of settle claims, finalize leases and burn-address stock. */
  owner: string;
};

/** Opens the storage the configuration names. */
export async function wireStorage({ config, env }: StorageParts): Promise<StorageWiring> {
  const archiveDays = config.settlement.archive_retention_days;
  const compaction = {
    retentionSeconds: config.settlement.expired_challenge_retention_seconds,
    lateBurnRetentionSeconds: config.settlement.late_burn_retention_days * 86_400,
    archiveRetentionSeconds: archiveDays === undefined ? undefined : archiveDays * 86_400,
    now: unixNow,
  };
  const storage =
    config.storage === undefined
      ? await openEmbeddedStorage({
          journalPath: config.settlement.journal ?? null,
          compaction,
          challenges: { maxOpenChallenges: config.daemon.max_open_challenges, retentionSeconds: config.settlement.expired_challenge_retention_seconds },
        })
      : await openStorageDatabase(config.storage, env, compaction);
  // Claims and leases name this process: a restarted instance is a new owner and waits out its old leases.
  const owner = `${hostname()}/${process.pid}/${randomUUID()}`;
  return { storage, owner };
}
