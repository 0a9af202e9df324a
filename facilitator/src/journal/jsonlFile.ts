/**
 * An append-only JSON-lines file that survives crashes: each append is written and fsynced before it
 * resolves, appends are serialised, and on open a torn last line (a crash mid-write) is reported and cut
 * off so the next append starts on a clean line. A damaged line anywhere else is real corruption and fails
 * the open: silently skipping it could drop an accepted payment.
 *
 * `replace` swaps the whole content atomically (write a sibling file, fsync, rename over, fsync the folder):
 * a crash leaves either the old file or the new one, never a mix. It is queued behind earlier appends.
 */
import { mkdir, open, rename, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { CorruptJournalError } from "./errors.js";

/** An open JSONL file. */
export type JsonlFile = {
  /** Every complete line parsed as JSON, in file order. */
  readonly lines: readonly unknown[];
  /** The incomplete last line found at open, if any (already cut off the file). */
  readonly tornLine: { lineNumber: number; bytes: number } | undefined;
  /** Appends one value as a line and resolves after fsync. */
  append: (value: unknown) => Promise<void>;
  /** Appends several values, one fsync for all. */
  appendMany: (values: readonly unknown[]) => Promise<void>;
  /**
   * Replaces the whole content with `values`, atomically, after every append queued before it; `before` runs
   * first inside the queue (to make what leaves the file durable elsewhere), and its failure cancels the swap.
   */
  replace: (values: readonly unknown[], options?: { before?: () => Promise<void> }) => Promise<void>;
  close: () => Promise<void>;
};

/** Opens (creating if missing) the JSONL file at `path`. */
export async function openJsonlFile(path: string): Promise<JsonlFile> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, "a+");
  try {
    const { lines, tornLine, validBytes } = parse(await handle.readFile("utf8"), path);
    if (tornLine) {
      await handle.truncate(validBytes);
      await handle.sync();
    }
    return { lines, tornLine, ...appender(path, handle) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function parse(text: string, path: string) {
  const lines: unknown[] = [];
  let tornLine: JsonlFile["tornLine"];
  let offset = 0;
  let lineNumber = 0;
  while (offset < text.length) {
    lineNumber++;
    const end = text.indexOf("\n", offset);
    if (end === -1) {
      tornLine = { lineNumber, bytes: Buffer.byteLength(text.slice(offset)) };
      break;
    }
    const line = text.slice(offset, end);
    offset = end + 1;
    if (line.trim() === "") continue;
    try {
      lines.push(JSON.parse(line));
    } catch (cause) {
      throw new CorruptJournalError({ path, lineNumber, cause });
    }
  }
  return { lines, tornLine, validBytes: Buffer.byteLength(text.slice(0, offset)) };
}

function appender(path: string, opened: FileHandle): Pick<JsonlFile, "append" | "appendMany" | "replace" | "close"> {
  let handle = opened;
  let tail: Promise<void> = Promise.resolve();
  const enqueue = (operation: () => Promise<void>): Promise<void> => {
    const run = tail.then(operation);
    // A failed operation must not wedge the ones queued after it; each caller still sees its own failure.
    tail = run.catch(() => undefined);
    return run;
  };
  const appendMany = (values: readonly unknown[]): Promise<void> => {
    const text = values.map(toLine).join("");
    return enqueue(async () => {
      if (text === "") return;
      await handle.appendFile(text, "utf8");
      await handle.sync();
    });
  };
  const replace = (values: readonly unknown[], options?: { before?: () => Promise<void> }): Promise<void> => {
    const text = values.map(toLine).join("");
    return enqueue(async () => {
      await options?.before?.();
      const sibling = join(dirname(path), `.${basename(path)}.replace`);
      // The new file's own handle becomes the append handle: after the rename it is the file at `path`, so no
      // append can go to the old, unlinked file.
      await rm(sibling, { force: true });
      const next = await open(sibling, "a+");
      try {
        await next.appendFile(text, "utf8");
        await next.sync();
        await rename(sibling, path);
        await syncFolder(dirname(path));
      } catch (error) {
        await next.close();
        throw error;
      }
      const previous = handle;
      handle = next;
      await previous.close();
    });
  };
  const close = async () => {
    await tail;
    await handle.close();
  };
  return { append: (value) => appendMany([value]), appendMany, replace, close };
}

function toLine(value: unknown): string {
  return `${JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item))}\n`;
}

// The rename is durable only once the folder entry is: fsync the folder itself.
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
