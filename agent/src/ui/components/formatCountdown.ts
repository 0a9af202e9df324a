/** Seconds left as `m:ss`, or `expired`; countdowns in the TUI read the same everywhere. */
export function formatCountdown(untilMs: number, nowMs: number): string {
  const seconds = Math.floor((untilMs - nowMs) / 1000);
  if (seconds <= 0) return "expired";
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
