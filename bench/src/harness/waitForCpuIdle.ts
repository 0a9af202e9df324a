/**
 * Waits until a process (or one of its threads) stops using CPU. The facilitator's burn-address worker
 * derives only while its stock is short, so "the worker is idle" means "the stock of pre-derived addresses is
 * full": the bench uses that to start each timed block from the same state.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { BenchError } from "./benchError.js";
import { anyThreadRunnable, readProcessCpuMs, readThreadCpuMs, readThreadState } from "./procStats.js";

/** What to watch and how quiet is quiet. */
export type WaitForCpuIdleParameters = {
  pid: number;
  /**
   * Watch these threads only (default: the whole process); a function is asked again at every window, for
   * threads that come and go (the burn-address workers exit when idle).
   */
  tids?: readonly number[] | (() => readonly number[]) | undefined;
  /** The CPU must grow by less than this over one window (default 2 ms). */
  thresholdMs?: number;
  /** Window length (default 100 ms). */
  windowMs?: number;
  /** Consecutive quiet windows needed (default 3). */
  windows?: number;
  /** Give up after this long (default 180 s). */
  timeoutMs?: number;
};

/** The process stayed busy past the timeout. */
export class CpuNeverIdleError extends BenchError {
  override name = "CpuNeverIdleError";
}

/**
 * Resolves, once `windows` consecutive windows passed with (almost) no CPU used
 * and the watched thread (or every thread) asleep at each window's end, with the milliseconds from the call
 * to the start of that quiet streak (when the work ended). The second condition matters on a
 * loaded machine: a thread starved of a CPU uses no CPU time either, but it stays runnable.
 */
export async function waitForCpuIdle(parameters: WaitForCpuIdleParameters): Promise<number> {
  const { pid } = parameters;
  const watched = () => (typeof parameters.tids === "function" ? parameters.tids() : parameters.tids);
  // A thread that exits lowers the sum, which counts as quiet; one that starts is runnable, which does not.
  const read = (tids = watched()) => (tids === undefined ? readProcessCpuMs(pid) : tids.reduce((sum, tid) => sum + readThreadCpuMs(pid, tid), 0));
  const runnable = (tids = watched()) => (tids === undefined ? anyThreadRunnable(pid) : tids.some((tid) => readThreadState(pid, tid) === "R"));
  const windowMs = parameters.windowMs ?? 100;
  const thresholdMs = parameters.thresholdMs ?? 2;
  const needed = parameters.windows ?? 3;
  const timeoutMs = parameters.timeoutMs ?? 180_000;
  const started = performance.now();
  let previous = read();
  let quiet = 0;
  let quietSince = started;
  for (;;) {
    const windowStart = performance.now();
    await sleep(windowMs);
    const current = read();
    quiet = current - previous < thresholdMs && !runnable() ? quiet + 1 : 0;
    if (quiet === 1) quietSince = windowStart;
    previous = current;
    // The wait ends where the quiet streak began, not after the windows spent confirming it.
    if (quiet >= needed) return quietSince - started;
    if (performance.now() - started > timeoutMs) {
      const tids = watched();
      throw new CpuNeverIdleError(`process ${pid}${tids === undefined ? "" : ` threads ${tids.join(", ")}`} stayed busy for ${timeoutMs} ms`);
    }
  }
}
