import { useEffect, useState } from "react";

/** The current time in milliseconds, re-read every `intervalMs`, so expiry countdowns tick. */
export function useClock(now: () => number, intervalMs = 1_000): number {
  const [time, setTime] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setTime(now()), intervalMs);
    return () => clearInterval(timer);
  }, [now, intervalMs]);
  return time;
}
