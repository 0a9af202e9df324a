/**
 * An append-only JSON-lines file that survives crashes: each append is written and fsynced before it
 * resolves, appends are serialised (those waiting behind a write go out together, one fsync), and on open a torn last line (a crash mid-write) is reported and cut
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

/** Opens (creating if missing) the JSONL file at `path`, reading every line into memory. */
export async function openJsonlFile(path: string): Promise<JsonlFile> {
  const lines: unknown[] = [];
  const file = await openFoldedJsonlFile(path, (value) => lines.push(value));
  try {
    const { tornLine } = await file.loaded;
    return { lines, tornLine, append: file.append, appendMany: file.appendMany, replace: file.replace, close: file.close };
  } catch (error) {
    await file.close();
    throw error;
  }
}

/** A JSONL file read by streaming its lines into a fold instead of into memory. */
export type FoldedJsonlFile = Omit<JsonlFile, "lines" | "tornLine"> & {
  /**
   * Resolves once every complete line went through the fold (and a torn last line was cut off); rejects with
   * `CorruptJournalError` on a damaged line. Appends queue behind it, so none lands before the read ends.
   */
  readonly loaded: Promise<{ lines: number; tornLine: JsonlFile["tornLine"] }>;
};

/** When {@link openFoldedJsonlFile} starts reading. */
export type FoldOptions = {
  /** The read starts once this resolves (default: at once); closing the file first cancels it (`loaded` then holds nothing). */
  after?: Promise<unknown> | undefined;
};

/**
 * Opens (creating if missing) the JSONL file at `path` and folds its lines into `fold`, in file order, a chunk
 * at a time: memory stays one chunk, and the event loop runs between chunks. The caller decides whether to
 * wait for `loaded`.
 */
export async function openFoldedJsonlFile(
  path: string,
  fold: (value: unknown, lineNumber: number) => void,
  options: FoldOptions = {},
): Promise<FoldedJsonlFile> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, "a+");
  let cancel: () => void = () => undefined;
  const cancelled = new Promise<"cancelled">((resolve) => {
    cancel = () => resolve("cancelled");
  });
  const loaded = Promise.race([Promise.resolve(options.after).then(() => "go" as const), cancelled]).then((start) =>
    start === "cancelled" ? { lines: 0, tornLine: undefined } : readLines(handle, path, fold),
  );
  // The rejection is the caller's to see through `loaded`; the queue only needs to know the read is over.
  loaded.catch(() => undefined);
  const appended = appender(path, handle, loaded);
  return {
    loaded,
    ...appended,
    close: () => {
      cancel();
      return appended.close();
    },
  };
}

// Small enough that one chunk's parsing (about 10 ms) never holds the event loop for long.
const READ_CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

async function readLines(handle: FileHandle, path: string, fold: (value: unknown, lineNumber: number) => void) {
  const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let carry = Buffer.alloc(0);
  let position = 0;
  let lineNumber = 0;
  let validBytes = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
    let start = 0;
    for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
      lineNumber++;
      const line = data.toString("utf8", start, end);
      validBytes += end + 1 - start;
      start = end + 1;
      if (line.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (cause) {
        throw new CorruptJournalError({ path, lineNumber, cause });
      }
      fold(value, lineNumber);
    }
    // A copy: `chunk` is reused by the next read.
    carry = Buffer.from(data.subarray(start));
  }
  const tornLine = carry.length === 0 ? undefined : { lineNumber: lineNumber + 1, bytes: carry.length };
  if (tornLine) {
    await handle.truncate(validBytes);
    await handle.sync();
  }
  return { lines: lineNumber, tornLine };
}

function appender(path: string, opened: FileHandle, read: Promise<unknown>): Pick<JsonlFile, "append" | "appendMany" | "replace" | "close"> {
  let handle = opened;
  let tail: Promise<void> = read.then(
    () => undefined,
    () => undefined,
  );
  const enqueue = (operation: () => Promise<void>): Promise<void> => {
    const run = tail.then(operation);
    // A failed operation must not wedge the ones queued after it; each caller still sees its own failure.
    tail = run.catch(() => undefined);
    return run;
  };
  // Group commit: appends made while the file is busy wait for it anyway, so they share one write and one
  // fsync, in call order; each still resolves only once its own lines are durable. A batch takes appends
  // until its write starts, or until a `replace` is queued (a later append must land in the new file).
  let gathering: { text: string; written: Promise<void> } | undefined;
  const appendMany = (values: readonly unknown[]): Promise<void> => {
    const text = values.map(toLine).join("");
    if (text === "") return enqueue(async () => undefined);
    if (gathering !== undefined) {
      gathering.text += text;
      return gathering.written;
    }
    const batch = { text, written: Promise.resolve() };
    batch.written = enqueue(async () => {
      if (gathering === batch) gathering = undefined;
      await handle.appendFile(batch.text, "utf8");
      await handle.sync();
    });
    gathering = batch;
    return batch.written;
  };
  const replace = (values: readonly unknown[], options?: { before?: () => Promise<void> }): Promise<void> => {
    const text = values.map(toLine).join("");
    gathering = undefined;
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

/** The rename is durable only once the folder entry is: fsync the folder itself. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
