/**
 * One daemon per journal. Two daemons on one journal each replay it, both append, and the stock file beside it
 * is rewritten under the one still running (offers it issued then vanish from disk and its next restart
 * refuses them as duplicates). The lock is `<journal>.lock`, created exclusively before anything reads or
 * writes the journal's files, holding the owner's host and pid; a daemon finding it held by a live process
 * refuses at once with {@link JournalLockedError} and touches nothing.
 *
 * A lock left by a process that no longer runs (a crash, a kill -9) is taken over, so a restart after a
 * crash needs no manual step. Liveness can only be checked on the same host: a lock written on another host
 * (a journal on a shared volume) is refused until an operator who knows that daemon is gone removes it.
 */
import { randomUUID } from "node:crypto";
import { open, readFile, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { parseJsonText } from "@svc/scheme";
import { z } from "zod";
import { JournalLockedError } from "./errors.js";

/** A lock file younger than this that does not parse is taken as one being written, not as a stale one. */
export const UNREADABLE_LOCK_GRACE_MS = 10_000;

const LockFileSchema = z.object({ pid: z.number().int().positive(), hostname: z.string(), owner: z.string(), at: z.number() });

/** Who holds a journal lock. */
export type JournalLockHolder = z.infer<typeof LockFileSchema>;

/** A held journal lock. */
export type JournalLock = {
  readonly path: string;
  /** The holder whose stale lock this one replaced, if any (worth a log line). */
  readonly tookOverFrom: JournalLockHolder | undefined;
  /** Removes the lock file if it is still this lock's; idempotent. */
  release: () => Promise<void>;
};

// Locks held by daemons of this process: a second daemon here is refused although the pid in the file is alive.
const heldHere = new Set<string>();

/** Takes the lock of the journal at `journalPath`, or throws {@link JournalLockedError} naming the holder. */
export async function lockJournal(journalPath: string): Promise<JournalLock> {
  const path = `${resolve(journalPath)}.lock`;
  if (heldHere.has(path)) throw new JournalLockedError({ path, holder: { pid: process.pid, hostname: hostname() } });
  const mine: JournalLockHolder = { pid: process.pid, hostname: hostname(), owner: randomUUID(), at: Date.now() };
  let tookOverFrom: JournalLockHolder | undefined;
  // Twice at most: a stale lock is removed once, and a daemon that wins the race for the freed name is live.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await createExclusive(path, `${JSON.stringify(mine)}\n`)) {
      heldHere.add(path);
      return { path, tookOverFrom, release: () => release(path, mine.owner) };
    }
    const holder = await readHolder(path);
    if (holder === "gone") continue;
    if (holder === "being-written" || !isStale(holder)) {
      throw new JournalLockedError({ path, holder: holder === "being-written" ? undefined : holder });
    }
    tookOverFrom = holder;
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  }
  const holder = await readHolder(path);
  throw new JournalLockedError({ path, holder: typeof holder === "object" ? holder : undefined });
}

async function createExclusive(path: string, content: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

async function readHolder(path: string): Promise<JournalLockHolder | "gone" | "being-written"> {
  try {
    const [text, stats] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const parsed = LockFileSchema.safeParse(parseJsonText(text));
    if (parsed.success) return parsed.data;
    // Empty or torn: a holder that crashed between creating and writing it, or one writing it right now.
    return Date.now() - stats.mtimeMs < UNREADABLE_LOCK_GRACE_MS ? "being-written" : { pid: 0, hostname: hostname(), owner: "", at: 0 };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
}

// Stale: written on this host by a process that is gone, or by this process for a daemon it no longer runs.
function isStale(holder: JournalLockHolder): boolean {
  if (holder.hostname !== hostname()) return false;
  if (holder.pid === 0 || holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists under another user, so it is alive.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function release(path: string, owner: string): Promise<void> {
  if (!heldHere.delete(path)) return;
  const holder = await readHolder(path).catch(() => undefined);
  if (typeof holder === "object" && holder.owner === owner) await unlink(path).catch(() => undefined);
}
