import { randomUUID } from "node:crypto";
import { link, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

import { LedgerLockTimeoutError } from "./errors.js";
import { isProcessAlive } from "./isProcessAlive.js";

/** How long to wait for the lock by default; ledger updates hold it for milliseconds. */
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;

/** A lock whose owner cannot be checked (empty file, another host) is stale after this long. */
export const DEFAULT_LOCK_STALE_MS = 30_000;

/** Options of `withFileLock`. */
export type FileLockOptions = {
  timeoutMs?: number | undefined;
  staleMs?: number | undefined;
};

type LockOwner = { pid: number; token: string };

/**
 * Runs `critical` while holding an exclusive lock file, across processes on one machine. The lock is a file
 * created with `O_EXCL` (`wx`) holding the owner's pid and a random token; a lock whose pid is gone, or that
 * is older than `staleMs` with no readable owner, is broken. Release deletes the file only if it still holds
 * our token, so a process that was wrongly judged stale cannot delete its successor's lock.
 *
 * @example
 * await withFileLock(join(stateDir, "ledger.lock"), async () => updateLedger());
 */
export async function withFileLock<T>(lockPath: string, critical: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const owner: LockOwner = { pid: process.pid, token: randomUUID() };
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (await tryAcquire(lockPath, owner)) break;
    await breakIfStale(lockPath, staleMs);
    if (Date.now() > deadline) throw new LedgerLockTimeoutError({ lockPath, timeoutMs });
    // Short, jittered waits: holders keep the lock for one read-modify-write.
    await delay(Math.min(50, 2 + attempt) + Math.random() * 5);
  }
  try {
    return await critical();
  } finally {
    await release(lockPath, owner);
  }
}

async function tryAcquire(lockPath: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, "wx", 0o600);
  } catch (error) {
    if (isCode(error, "EEXIST")) return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(owner));
  } finally {
    await handle.close();
  }
  return true;
}

async function release(lockPath: string, owner: LockOwner): Promise<void> {
  const current = await readOwner(lockPath);
  if (current?.token === owner.token) await unlink(lockPath).catch(() => undefined);
}

/**
 * Breaks the lock when its owner is dead or, with no readable owner, when it is older than `staleMs`. The
 * file is first renamed aside and compared with what was judged stale: if another process re-created the
 * lock in between, the fresh lock is put back with `link` (which refuses to overwrite) instead of deleted.
 */
async function breakIfStale(lockPath: string, staleMs: number): Promise<void> {
  let text: string;
  let modifiedMs: number;
  try {
    [text, modifiedMs] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath).then((info) => info.mtimeMs)]);
  } catch (error) {
    if (isCode(error, "ENOENT")) return;
    throw error;
  }
  const owner = parseOwner(text);
  const stale = owner === undefined ? Date.now() - modifiedMs > staleMs : !isProcessAlive(owner.pid);
  if (!stale) return;

  const aside = `${lockPath}.${randomUUID()}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (isCode(error, "ENOENT")) return;
    throw error;
  }
  const moved = await readFile(aside, "utf8").catch(() => "");
  if (moved !== text) await link(aside, lockPath).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    return parseOwner(await readFile(lockPath, "utf8"));
  } catch {
    return undefined;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    const pid: unknown = Reflect.get(value, "pid");
    const token: unknown = Reflect.get(value, "token");
    return typeof pid === "number" && Number.isSafeInteger(pid) && pid > 0 && typeof token === "string" ? { pid, token } : undefined;
  } catch {
    return undefined;
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && Reflect.get(error, "code") === code;
}
