/** Runs autocannon (the ecosystem's HTTP load generator) and keeps every response time, for medians and p95s. */
import autocannon from "autocannon";
import { BenchError } from "./benchError.js";
import { summarize, type Summary } from "./stats.js";

/** One load test: either a duration or a fixed number of requests. */
export type LoadTestParameters = {
  url: string;
  method?: "GET" | "POST";
  body?: string;
  connections: number;
  /** Seconds to run (ignored when `amount` is set). */
  durationSec?: number;
  /** Exactly this many requests. */
  amount?: number;
};

/** What one load test measured. */
export type LoadTestResult = {
  connections: number;
  /** Responses received. */
  responses: number;
  /** 2xx responses. */
  ok: number;
  /** Non-2xx responses. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** From the first request sent to the last response received, seconds. */
  durationSec: number;
  /** 2xx responses per second over `durationSec`. */
  okPerSec: number;
  /** Response time of every response, in milliseconds. */
  latency: Summary;
};

/**
 * Runs one autocannon test against `url`.
 * @example
 * const result = await runLoadTest({ url: `${koa.url}/challenge`, method: "POST", body, connections: 16, durationSec: 3 });
 */
export function runLoadTest(parameters: LoadTestParameters): Promise<LoadTestResult> {
  const latencies: number[] = [];
  let ok = 0;
  let responses = 0;
  let firstSent = Number.POSITIVE_INFINITY;
  let lastReceived = Number.NEGATIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: parameters.url,
        method: parameters.method ?? "GET",
        ...(parameters.body === undefined ? {} : { body: parameters.body, headers: { "content-type": "application/json" } }),
        connections: parameters.connections,
        ...(parameters.amount === undefined ? { duration: parameters.durationSec ?? 3 } : { amount: parameters.amount }),
        // A request waiting for a burn-address derivation may take seconds; never count it as a timeout.
        timeout: 60,
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) {
          reject(error instanceof Error ? error : new BenchError(String(error)));
          return;
        }
        // Timed from the responses themselves: autocannon's own clock ticks once a second, far too coarse
        // for a burst of sixteen requests.
        const durationSec = responses === 0 ? Number.NaN : (lastReceived - firstSent) / 1000;
        resolve({
          connections: parameters.connections,
          responses,
          ok,
          non2xx: result.non2xx,
          errors: result.errors,
          durationSec,
          okPerSec: ok / durationSec,
          latency: summarize(latencies),
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      const now = performance.now();
      firstSent = Math.min(firstSent, now - responseTime);
      lastReceived = Math.max(lastReceived, now);
      responses++;
      if (statusCode >= 200 && statusCode < 300) ok++;
      latencies.push(responseTime);
    });
  });
}
