import type { Writable } from "node:stream";

/** Writes one newline-terminated line; `--json` output is one JSON object per line. */
export function writeLine(stream: Writable, line: string): void {
  stream.write(`${line}\n`);
}

/** Writes one JSON object as one line, dropping `undefined` fields. */
export function writeJsonLine(stream: Writable, value: Record<string, unknown>): void {
  writeLine(stream, JSON.stringify(value));
}
