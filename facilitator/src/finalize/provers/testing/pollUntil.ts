/**
 * The prover tests' poll: checks a condition every 20 ms until it holds or a deadline passes, so a wait on
 * another process never spins forever and never relies on a fixed sleep. (`@svc/anvil-fixtures` has the
 * stack's own `waitFor`; these tests do not load the stack.)
 */
import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

/** Resolves once `condition` holds; throws naming `what` when it still does not after `timeoutMs`. */
export async function pollUntil(
  condition: () => boolean | Promise<boolean>,
  { what, timeoutMs = 15_000 }: { what: string; timeoutMs?: number },
): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    const pastDeadline = Date.now() >= giveUpAt;
    if (await condition()) return;
    if (pastDeadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await delay(20);
  }
}

/**
 * Whether a process with this pid is still running: a signal 0 reaches it and, on Linux, it is not a zombie
 * (an orphan killed under an init that does not reap stays one, though it runs no more).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return !(error instanceof Error && "code" in error && error.code === "ESRCH");
  }
  if (process.platform !== "linux") return true;
  try {
    // The state follows the parenthesized command name: "<pid> (<comm>) <state> ...".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
