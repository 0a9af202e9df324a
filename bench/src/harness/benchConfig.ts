/**
 * Run counts of every measurement. The defaults keep `make bench` under ten minutes on two cores, where
 * the binding cost is the facilitator's burn-address derivation (about one second of CPU per challenge on
 * one worker thread); each can be raised through the environment for a longer, steadier run.
 */
import { BenchError } from "./benchError.js";

/** How many runs each measurement makes. */
export type BenchConfig = {
  /** Timed paid requests per scheme (ours permit, ours self-transfer, exact), interleaved. `BENCH_PAID_RUNS` */
  paidRuns: number;
  /** Exact-scheme paid requests timed while our facilitator is idle (reference). `BENCH_EXACT_QUIET_RUNS` */
  exactQuietRuns: number;
  /** Self-transfer settles against the raw RPC floor. `BENCH_SETTLE_RUNS` */
  settleRuns: number;
  /** `/verify` + `/settle` pairs per path for the RPC counts. `BENCH_RPC_RUNS` */
  rpcRuns: number;
  /** Agent CLI cold starts and TUI first renders. `BENCH_AGENT_RUNS` */
  agentRuns: number;
  /** Seconds per bare-Koa load test. `BENCH_KOA_SECONDS` */
  koaSeconds: number;
  /** Concurrent paid requests (one relayer key). `BENCH_CONCURRENT` */
  concurrent: number;
  /** Burst pairs (ours, then exact) of the concurrent settles, for a median and a spread. `BENCH_CONCURRENT_BURSTS` */
  concurrentBursts: number;
  /** Payments timed from accepted to finalized, under each witness source (`self`, then `indexer`). `BENCH_FINALIZE_RUNS` */
  finalizeRuns: number;
  /** Accepted payments pending when mints per minute are measured. `BENCH_PENDING` */
  pending: number;
  /** Open challenges to actually reach for the RSS figure; 0 extrapolates from the bursts. `BENCH_OPEN_CHALLENGES` */
  openChallenges: number;
  /** Timed settles per variant of section 11 (exact, ours at 1 and 2 confirmations, each path) on a 1 s block chain. `BENCH_CONFIRMATION_RUNS` */
  confirmationRuns: number;
  /** Lines of the synthetic payment history section 12 starts the facilitator with. `BENCH_HISTORY_RECORDS` */
  historyRecords: number;
};

/** The defaults (see the file comment). */
export const DEFAULT_BENCH_CONFIG: BenchConfig = {
  paidRuns: 15,
  exactQuietRuns: 15,
  settleRuns: 30,
  rpcRuns: 5,
  agentRuns: 5,
  koaSeconds: 3,
  concurrent: 50,
  concurrentBursts: 5,
  finalizeRuns: 5,
  pending: 100,
  openChallenges: 0,
  confirmationRuns: 8,
  historyRecords: 1_000_000,
};

const VARIABLES: Record<keyof BenchConfig, string> = {
  paidRuns: "BENCH_PAID_RUNS",
  exactQuietRuns: "BENCH_EXACT_QUIET_RUNS",
  settleRuns: "BENCH_SETTLE_RUNS",
  rpcRuns: "BENCH_RPC_RUNS",
  agentRuns: "BENCH_AGENT_RUNS",
  koaSeconds: "BENCH_KOA_SECONDS",
  concurrent: "BENCH_CONCURRENT",
  concurrentBursts: "BENCH_CONCURRENT_BURSTS",
  finalizeRuns: "BENCH_FINALIZE_RUNS",
  pending: "BENCH_PENDING",
  openChallenges: "BENCH_OPEN_CHALLENGES",
  confirmationRuns: "BENCH_CONFIRMATION_RUNS",
  historyRecords: "BENCH_HISTORY_RECORDS",
};

/** The defaults with any `BENCH_*` override from `env` applied; a malformed value is a {@link BenchError}. */
export function loadBenchConfig(env: Record<string, string | undefined>): BenchConfig {
  const config = { ...DEFAULT_BENCH_CONFIG };
  for (const key of Object.keys(DEFAULT_BENCH_CONFIG).filter((name): name is keyof BenchConfig => name in VARIABLES)) {
    const variable = VARIABLES[key];
    const raw = env[variable];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new BenchError(`${variable} must be a non-negative integer`);
    config[key] = value;
  }
  return config;
}
