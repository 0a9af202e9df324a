/** Reads our facilitator's JSON log lines (`{ts, level, event, ...}`) for the events the bench times. */

/** One parsed log event. */
export type LogEvent = { ts: number; event: string; challengeNonce: string | undefined; fields: Record<string, unknown> };

/** Parses every JSON line of `lines` (other lines are skipped). */
export function parseLogEvents(lines: readonly string[]): LogEvent[] {
  const events: LogEvent[] = [];
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof parsed !== "object" || parsed === null) continue;
    const fields: Record<string, unknown> = { ...parsed };
    if (typeof fields.event !== "string" || typeof fields.ts !== "string") continue;
    events.push({
      ts: Date.parse(fields.ts),
      event: fields.event,
      challengeNonce: typeof fields.challenge_nonce === "string" ? fields.challenge_nonce.toLowerCase() : undefined,
      fields,
    });
  }
  return events;
}

/** The first time each challenge nonce logged `event`, in epoch milliseconds. */
export function eventTimes(lines: readonly string[], event: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const entry of parseLogEvents(lines)) {
    if (entry.event === event && entry.challengeNonce !== undefined && !times.has(entry.challengeNonce)) times.set(entry.challengeNonce, entry.ts);
  }
  return times;
}

/** How many lines logged `event`. */
export function countEvents(lines: readonly string[], event: string): number {
  return parseLogEvents(lines).filter((entry) => entry.event === event).length;
}
