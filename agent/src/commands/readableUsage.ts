import { Writable } from "node:stream";

/** What each option's value is, shown in usage instead of clipanion's bare `#0`. */
const VALUE_NAMES: Record<string, string> = {
  "--out": "dir",
  "--trust-anchor": "file",
  "--proof": "file",
  "--manifest": "file",
  "--status-chain": "file",
  "--at": "time",
};

/**
 * Usage text with `--out #0` written as `--out <dir>`, and a required `<--out #0>` as `--out <dir>` (clipanion names an
 * option's value only by its index, and its brackets around a required option would nest).
 */
export function readableUsage(text: string): string {
  return text
    .replace(/<(--[a-z][a-z-]*) #0>/g, (_match, option: string) => `${option} <${VALUE_NAMES[option] ?? "value"}>`)
    .replace(/(--[a-z][a-z-]*) #0/g, (_match, option: string) => `${option} <${VALUE_NAMES[option] ?? "value"}>`);
}

/** A stream that writes through `target`, making clipanion's usage text readable on the way. */
export function readableUsageStream(target: Writable): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      // Passed on at once: the caller flushes `target` before exiting, and nothing may wait in here.
      target.write(readableUsage(chunk.toString()));
      callback();
    },
  });
}
