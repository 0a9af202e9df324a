/**
 * Polls a condition until it holds or a deadline passes: how tests wait for a background loop (a monitor's
 * replacement, a log line) without fixed sleeps, and fail with a name when it never comes.
 */

/** Calls `probe` every `intervalMs` until it returns a value other than `undefined` or `false`; throws after `timeoutMs`. */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const giveUpAt = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > giveUpAt) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}
