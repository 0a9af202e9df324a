import { randomBytes } from "node:crypto";
import { open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Replaces `path` with `contents` so that a reader, or a crash at any moment, sees either the old file or
 * the new one, never a torn write: write a temporary file beside it, fsync it, rename it over `path`, then
 * fsync the folder so the rename itself survives a power cut.
 */
export async function atomicWriteFile(path: string, contents: string, mode = 0o600): Promise<void> {
  const temporary = await writeSyncedTemporary(path, contents, mode);
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

/**
 * Writes `contents` to a fresh temporary file beside `path` and fsyncs it, returning the temporary's path;
 * the caller moves it into place (rename to replace, link to create only if absent) and removes it.
 */
export async function writeSyncedTemporary(path: string, contents: string, mode = 0o600): Promise<string> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temporary, "wx", mode);
  try {
    await handle.writeFile(contents, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temporary;
}

/** fsyncs a folder so a rename or link in it is durable; a no-op where folders cannot be opened (Windows). */
export async function syncDirectory(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}
