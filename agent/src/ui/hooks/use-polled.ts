import { useCallback, useEffect, useRef, useState } from "react";

/** What `usePolled` holds: the last value read, or the last read's failure. */
export type Polled<T> = { value: T | undefined; error: string | undefined; refresh: () => void };

/**
 * Re-reads `read` every `intervalMs` (and on `refresh`), keeping the last good value; a failed read is
 * reported without clearing it. Reads never overlap.
 */
export function usePolled<T>(read: () => Promise<T>, intervalMs: number): Polled<T> {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const running = useRef(false);
  const mounted = useRef(true);
  const refresh = useCallback(() => {
    if (running.current) return;
    running.current = true;
    read()
      .then(
        (next) => {
          if (mounted.current) {
            setValue(next);
            setError(undefined);
          }
        },
        (failure: unknown) => {
          if (mounted.current) setError(failure instanceof Error ? failure.message.split("\n")[0] : String(failure));
        },
      )
      .finally(() => {
        running.current = false;
      });
  }, [read]);
  useEffect(() => {
    mounted.current = true;
    refresh();
    const timer = setInterval(refresh, intervalMs);
    return () => {
      mounted.current = false;
      clearInterval(timer);
    };
  }, [refresh, intervalMs]);
  return { value, error, refresh };
}
