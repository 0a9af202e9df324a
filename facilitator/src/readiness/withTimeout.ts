/**
 * Bounds a promise for the operator-facing probes (readiness, scrape-time reads): they must answer within
 * seconds even when the RPC hangs.
 */

/** Resolves like `promise`, or rejects once `timeoutMs` has passed. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
