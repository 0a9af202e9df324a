import type { Writable } from "node:stream";

import { readableUsage as readable, readableUsageStream as readableStream, type UsageDefinitions } from "@svc/scheme/cli-help";

/** What each option's value is, shown in usage instead of clipanion's bare `#0`. */
const VALUE_NAMES: Record<string, string> = {
  "--out": "dir",
  "--trust-anchor": "file",
  "--proof": "file",
  "--manifest": "file",
  "--status-chain": "file",
  "--at": "time",
};

/** The agent's usage text made readable: named option values, required options on the usage line, aligned options. */
export function readableUsage(text: string, definitions: UsageDefinitions): string {
  return readable(text, { definitions, valueNames: VALUE_NAMES });
}

/** A stream that writes through `target`, making the agent's usage text readable on the way. */
export function readableUsageStream(target: Writable, definitions: UsageDefinitions): Writable {
  return readableStream(target, { definitions, valueNames: VALUE_NAMES });
}
