/**
 * An append-only JSON-lines file that survives crashes: each append is written and fsynced before it
 * resolves, appends are serialised, and on open a torn last line (a crash mid-write) is reported and cut
 * off so the next append starts on a clean line. A damaged line anywhere else is real corruption and fails
 * the open: silently skipping it could drop an accepted payment.
 */
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { CorruptJournalError } from "../errors/journal.js";

/** An open JSONL file. */
export type JsonlFile = {
  /** Every complete line parsed as JSON, in file order. */
  readonly lines: readonly unknown[];
  /** The incomplete last line found at open, if any (already cut off the file). */
  readonly tornLine: { lineNumber: number; bytes: number } | undefined;
  /** Appends one value as a line and resolves after fsync. */
  append: (value: unknown) => Promise<void>;
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
    return { lines, tornLine, ...appender(handle) };
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

function appender(handle: FileHandle): Pick<JsonlFile, "append" | "close"> {
  let tail: Promise<void> = Promise.resolve();
  const append = (value: unknown): Promise<void> => {
    const line = `${JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item))}\n`;
    const write = tail.then(async () => {
      await handle.appendFile(line, "utf8");
      await handle.sync();
    });
    // A failed append must not wedge the ones queued after it; each caller still sees its own failure.
    tail = write.catch(() => undefined);
    return write;
  };
  const close = async () => {
    await tail;
    await handle.close();
  };
  return { append, close };
}
