/**
 * The on-disk artifact cache: one JSON file per cache key, written atomically, plus a lock so that test
 * files running in parallel workers compile once instead of once per worker.
 */
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Abi, Hex } from "viem";
import { z } from "zod";
import { InvalidArtifactCacheError } from "./errors.js";

/** The compiled form of one contract. */
export type ContractArtifact = {
  /** The contract's name in its source. */
  contractName: string;
  /** The solc source unit (path relative to the repository root). */
  sourceName: string;
  /** The contract ABI as solc emitted it. */
  abi: Abi;
  /** Creation bytecode, 0x-prefixed. */
  bytecode: Hex;
};

/** What one cache file holds. */
export type ArtifactCacheEntry = {
  /** The key the file is named after. */
  cacheKey: string;
  /** solc version that produced the artifacts. */
  solcVersion: string;
  /** Artifacts keyed by contract name. */
  artifacts: Record<string, ContractArtifact>;
  /** Compiler warnings, kept so a cached run can still show them. */
  warnings: string[];
};

function isAbi(value: unknown): value is Abi {
  return Array.isArray(value) && value.every((item: unknown) => typeof item === "object" && item !== null && "type" in item);
}

const hexSchema = z.custom<Hex>((value) => typeof value === "string" && /^0x[0-9a-fA-F]*$/.test(value));

/** zod schema of one artifact, shared with the compiler output parser. */
export const contractArtifactSchema = z.object({
  contractName: z.string(),
  sourceName: z.string(),
  abi: z.custom<Abi>(isAbi),
  bytecode: hexSchema,
});

const artifactCacheEntrySchema = z.object({
  cacheKey: z.string(),
  solcVersion: z.string(),
  artifacts: z.record(z.string(), contractArtifactSchema),
  warnings: z.array(z.string()),
});

/** Path of the cache file for `cacheKey`. */
export function artifactCachePath(cacheDir: string, cacheKey: string): string {
  return join(cacheDir, `${cacheKey}.json`);
}

/** Reads the cache entry for `cacheKey`, or undefined when there is none yet. */
export async function readArtifactCache(cacheDir: string, cacheKey: string): Promise<ArtifactCacheEntry | undefined> {
  const path = artifactCachePath(cacheDir, cacheKey);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isNodeError(error) && error.code === "ENOENT") return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidArtifactCacheError(path, error instanceof Error ? error.message : String(error));
  }
  const parsed = artifactCacheEntrySchema.safeParse(json);
  if (!parsed.success) throw new InvalidArtifactCacheError(path, parsed.error.message);
  if (parsed.data.cacheKey !== cacheKey) throw new InvalidArtifactCacheError(path, "cache key does not match file");
  return parsed.data;
}

/** Writes the entry via a temporary file and rename, so a concurrent reader never sees half a file. */
export async function writeArtifactCache(cacheDir: string, entry: ArtifactCacheEntry): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const path = artifactCachePath(cacheDir, entry.cacheKey);
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, JSON.stringify(entry));
  await rename(temporary, path);
  return path;
}

/** A lock older than this is left over by a crashed process and may be taken over. */
const STALE_LOCK_MS = 2 * 60_000;
const LOCK_POLL_MS = 100;

/**
 * Runs `work` while holding the lock for `cacheKey`, waiting while another process holds it. `work` should
 * re-check the cache first: the process that held the lock has usually just filled it.
 */
export async function withArtifactCacheLock<T>(cacheDir: string, cacheKey: string, work: () => Promise<T>): Promise<T> {
  await mkdir(cacheDir, { recursive: true });
  const lockPath = join(cacheDir, `${cacheKey}.lock`);
  for (;;) {
    const handle = await open(lockPath, "wx").catch((error: unknown) => {
      if (isNodeError(error) && error.code === "EEXIST") return undefined;
      throw error;
    });
    if (handle !== undefined) {
      try {
        await handle.close();
        return await work();
      } finally {
        await rm(lockPath, { force: true });
      }
    }
    const lockAge = await stat(lockPath).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (lockAge > STALE_LOCK_MS) {
      await rm(lockPath, { force: true });
      continue;
    }
    await sleep(LOCK_POLL_MS);
  }
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}
