/**
 * `facilitator status --watch`: the status summary, read again every interval until Ctrl-C. On a terminal each
 * frame replaces the last in place (one screen, like `watch`); piped, frames follow one another under a time
 * line, and with `--json` each read is one JSON line (`at`, then the status or the `error`), for scripts that
 * follow a daemon. A read that fails is shown in its frame and the next read tries again: a live view outlasts
 * a daemon restart.
 */
import { setTimeout as delay } from "node:timers/promises";

import type { DaemonStatus } from "../operator/fetchDaemonStatus.js";
import { formatDaemonStatus } from "../operator/formatDaemonStatus.js";
import { describeError } from "./describeError.js";
import { redactOutput } from "./redactOutput.js";
import { statusReader, type StatusTarget } from "./statusReader.js";

/** Cursor home, then clear the screen: the next frame is drawn where the last one was. */
export const CLEAR_SCREEN = "\u001b[H\u001b[2J";

/** Parameters of {@link watchStatus}. */
export type WatchStatusParameters = StatusTarget & {
  format?: "text" | "json" | undefined;
  write: (text: string) => void;
  writeError: (text: string) => void;
  intervalMs: number;
  /** Redraw in place (the output is a terminal) rather than append frames. */
  inPlace: boolean;
  /** Ends the watch (Ctrl-C, SIGTERM); the watch then resolves 0. */
  signal: AbortSignal;
  now?: () => Date;
};

/** Watches until `signal` aborts; resolves to the exit code (1 only when the configuration cannot be read). */
export async function watchStatus(parameters: WatchStatusParameters): Promise<number> {
  const { env, signal } = parameters;
  const now = parameters.now ?? (() => new Date());
  let read: () => Promise<DaemonStatus>;
  try {
    read = await statusReader(parameters);
  } catch (error) {
    parameters.writeError(`${redactOutput(`facilitator status: ${describeError(error)}`, env)}\n`);
    return 1;
  }
  const every = `every ${parameters.intervalMs / 1000} s`;
  while (!signal.aborted) {
    const at = now();
    const outcome = await read().then(
      (status) => ({ status }),
      (error: unknown) => ({ error: describeError(error) }),
    );
    if (signal.aborted) break;
    parameters.write(redactOutput(frame(parameters, at, every, outcome), env));
    await delay(parameters.intervalMs, undefined, { signal }).catch(() => undefined);
  }
  return 0;
}

function frame(parameters: WatchStatusParameters, at: Date, every: string, outcome: { status: DaemonStatus } | { error: string }): string {
  if (parameters.format === "json") return `${JSON.stringify({ at: at.toISOString(), ...outcome })}\n`;
  const time = at.toISOString().slice(11, 19);
  const body = "status" in outcome ? formatDaemonStatus(outcome.status) : `cannot read the daemon: ${outcome.error} (trying again ${every})\n`;
  if (parameters.inPlace) return `${CLEAR_SCREEN}${time} UTC, ${every} (Ctrl-C to stop)\n\n${body}`;
  return `--- ${time} UTC ---\n${body}`;
}
