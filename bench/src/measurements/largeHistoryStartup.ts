/**
 * Section 12: startup with a large payment history. The facilitator folds its history file
 * (`PAYMENT_HISTORY_PATH`) before startup goes on only when it is small (8 MiB); a larger one is folded once the
 * daemon listens (`history_loading` at opening, `history_loaded` with `records` and `ms` of the fold at the end). Target:
 * startup ≤ 3 s with one million history records, startup being from spawning the process until `GET /readyz`
 * first answers 200.
 *
 * The section writes a synthetic history of `records` lines (`largeHistory/syntheticHistory.ts`), then starts
 * the built facilitator twice on the run's stack, each time with a fresh journal and burn-address stock: once
 * with an empty history file, once with the large one. Each start is timed from just before the spawn to the
 * first 200 of `/readyz` (polled every 50 ms); then the bench waits for `history_loaded` and reads the
 * process's RSS. Readiness needs one burn address in stock, so both starts include deriving it (a stock of
 * two on one worker thread keeps that small); the empty start is the baseline the large one is compared with.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { readEnvFile, startFacilitatorProcess, type FacilitatorProcess, type RunningStack } from "@svc/anvil-fixtures";
import { BenchError } from "../harness/benchError.js";
import { writeFacilitatorConfig } from "../harness/facilitatorConfig.js";
import { parseLogEvents } from "../harness/facilitatorLog.js";
import { readRssBytes } from "../harness/procStats.js";
import { type HistoryBinding, writeSyntheticHistory } from "../largeHistory/syntheticHistory.js";

/** The target: spawn → `/readyz` 200 with one million history records, ms. */
export const LARGE_HISTORY_TARGET_MS = 3_000;

/** How long a start may take to answer `/readyz` 200 before the section gives up, ms. */
export const READY_DEADLINE_MS = 60_000;

/** How long the background fold may take, from the first 200, before the section gives up, ms. */
export const FOLD_DEADLINE_MS = 180_000;

/** Interval of the `/readyz` polls, ms. */
export const READY_POLL_MS = 50;

/** Burn addresses each start keeps pre-derived, and its worker threads: readiness needs one, and derivation must not dominate. */
export const LARGE_HISTORY_POOL_SIZE = 2;
export const LARGE_HISTORY_WORKERS = 1;

/** The participant bindings of the environment, and of every synthetic payment. */
const BINDINGS: { payer: HistoryBinding; provider: HistoryBinding } = {
  payer: { tenantId: "bench-payer-tenant", actorId: "bench-payer" },
  provider: { tenantId: "bench-provider-tenant", actorId: "bench-provider" },
};

/** One timed start. */
export type HistoryStartup = {
  /** Lines of the history file it started with. */
  fileRecords: number;
  /** Spawn → the history file opened (the daemon's `history_enabled` line, logged right after), ms. */
  historyOpenedMs: number;
  /** Spawn → the `started` log line as the bench read it, ms. */
  startedMs: number;
  /** Spawn → the first 200 of `GET /readyz`, ms: the startup the target is about. */
  readyMs: number;
  /** 503 answers of `/readyz` before the first 200, per failing component (`stock`, `indexer`, ...). */
  notReady: Record<string, number>;
  /** Whether startup went on without the fold (`history_loading` logged). */
  foldedInBackground: boolean;
  /** `history_loaded`'s `records`: lines folded. */
  recordsLoaded: number;
  /** `history_loaded`'s `ms`: the fold's time (from opening the file, or from listening when it was deferred). */
  loadMs: number;
  /** Spawn → `history_loaded` as the bench read it, ms. */
  loadedAtMs: number;
  /** Resident set size read right after `history_loaded`, bytes. */
  rssAfterLoadBytes: number;
  /** Spawn → each startup event by the daemon's own log timestamps (ms resolution), ms. */
  events: Record<string, number>;
};

/** What section 12 measured. */
export type LargeHistoryStartupResult = {
  /** Lines of the large history file (`BENCH_HISTORY_RECORDS`). */
  records: number;
  /** Its size, bytes. */
  fileBytes: number;
  /** Time to write it, ms. */
  writeMs: number;
  /** The start with an empty history file: the baseline. */
  empty: HistoryStartup;
  /** The start with the large one. */
  large: HistoryStartup;
  /** {@link LARGE_HISTORY_TARGET_MS}. */
  targetMs: number;
  poolSize: number;
  workers: number;
  /** The whole section, s. */
  durationSeconds: number;
};

/** What section 12 needs of the run: the stack (its facilitator files, chain and indexer up) and a folder. */
export type LargeHistoryStartupParameters = {
  dir: string;
  stack: RunningStack;
  progress: (message: string) => void;
  records: number;
};

/** The startup events whose daemon timestamps the section keeps. */
const TIMELINE_EVENTS = ["history_loading", "history_enabled", "journal_restored", "burn_address_stock_restored", "started", "history_loaded"] as const;

function lastLines(instance: FacilitatorProcess, count = 8): string {
  return instance.lines.slice(-count).join("\n");
}

/** Polls `/readyz` until it answers 200; counts the components each 503 names. */
async function waitForReady(instance: FacilitatorProcess, spawnedAt: number, notReady: Record<string, number>): Promise<number> {
  for (;;) {
    const response = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
    if (response?.status === 200) {
      const readyMs = performance.now() - spawnedAt;
      await response.body?.cancel();
      return readyMs;
    }
    const body = (await response?.json().catch(() => undefined)) as { failing?: unknown } | undefined;
    const failing = Array.isArray(body?.failing) ? body.failing.map(String) : [response === undefined ? "no_answer" : `http_${response.status}`];
    for (const component of failing) notReady[component] = (notReady[component] ?? 0) + 1;
    if (performance.now() - spawnedAt > READY_DEADLINE_MS) {
      throw new BenchError(
        `large history: /readyz did not answer 200 within ${READY_DEADLINE_MS} ms of the spawn (failing: ${JSON.stringify(notReady)}); last lines:\n${lastLines(instance)}`,
      );
    }
    await sleep(READY_POLL_MS);
  }
}

/** Waits for the `history_loaded` line; a `history_unavailable` line or an exit fails the section. */
async function waitForHistoryLoaded(instance: FacilitatorProcess): Promise<{ records: number; ms: number }> {
  const deadline = performance.now() + FOLD_DEADLINE_MS;
  for (;;) {
    for (const entry of parseLogEvents(instance.lines)) {
      if (entry.event === "history_loaded") return { records: Number(entry.fields.records), ms: Number(entry.fields.ms) };
      if (entry.event === "history_unavailable")
        throw new BenchError(`large history: the facilitator could not fold the history: ${JSON.stringify(entry.fields)}`);
    }
    if (instance.child.exitCode !== null || instance.child.signalCode !== null) {
      throw new BenchError(`large history: the facilitator exited before history_loaded; last lines:\n${lastLines(instance)}`);
    }
    if (performance.now() > deadline)
      throw new BenchError(`large history: no history_loaded within ${FOLD_DEADLINE_MS} ms of readiness; last lines:\n${lastLines(instance)}`);
    await sleep(100);
  }
}

/** Starts the facilitator with `configPath` and `env` (the history file of `fileRecords` lines in it), times it to ready and to the end of the fold, then stops it. */
async function timeStartup(configPath: string, env: Record<string, string>, fileRecords: number): Promise<HistoryStartup> {
  const spawnedAt = performance.now();
  const spawnedAtEpoch = Date.now();
  const instance = await startFacilitatorProcess({ configPath, env });
  const startedMs = performance.now() - spawnedAt;
  try {
    const pid = instance.child.pid;
    if (pid === undefined) throw new BenchError("large history: the facilitator process has no pid");
    const notReady: Record<string, number> = {};
    const readyMs = await waitForReady(instance, spawnedAt, notReady);
    const loaded = await waitForHistoryLoaded(instance);
    const loadedAtMs = performance.now() - spawnedAt;
    const rssAfterLoadBytes = readRssBytes(pid);
    const events: Record<string, number> = {};
    for (const entry of parseLogEvents(instance.lines)) {
      if ((TIMELINE_EVENTS as readonly string[]).includes(entry.event) && events[entry.event] === undefined) events[entry.event] = entry.ts - spawnedAtEpoch;
    }
    return {
      fileRecords,
      historyOpenedMs: events.history_enabled ?? Number.NaN,
      startedMs,
      readyMs,
      notReady,
      foldedInBackground: events.history_loading !== undefined,
      recordsLoaded: loaded.records,
      loadMs: loaded.ms,
      loadedAtMs,
      rssAfterLoadBytes,
      events,
    };
  } finally {
    await instance.stop();
  }
}

/**
 * Runs section 12 on `stack` (whose indexer must be up: `/readyz` checks it) and removes the files it wrote.
 * @example
 * const result = await measureLargeHistoryStartup({ dir, stack, progress, records: config.historyRecords });
 */
export async function measureLargeHistoryStartup({ dir, stack, progress, records }: LargeHistoryStartupParameters): Promise<LargeHistoryStartupResult> {
  const sectionStarted = performance.now();
  const sectionDir = join(dir, "large-history");
  await mkdir(sectionDir, { recursive: true });
  try {
    const stackEnv = await readEnvFile(stack.files.facilitatorEnv);
    const shape = {
      bindings: BINDINGS,
      network: `eip155:${stack.deployment.chainId}`,
      asset: stack.deployment.token,
      recipient: stack.deployment.accounts.treasury.address,
    };
    const largePath = join(sectionDir, "history-large.jsonl");
    const emptyPath = join(sectionDir, "history-empty.jsonl");
    progress(`large history: writing ${records} history records`);
    const writeStarted = performance.now();
    const written = await writeSyntheticHistory(largePath, records, shape);
    const writeMs = performance.now() - writeStarted;
    await writeFile(emptyPath, "");

    const start = async (label: string, historyPath: string, fileRecords: number) => {
      const configPath = join(sectionDir, `${label}.toml`);
      await writeFacilitatorConfig(stack.files.facilitatorToml, configPath, {
        rpcUrl: stack.deployment.rpcUrl,
        journal: `${label}-journal.jsonl`,
        challengeTtlSeconds: 300,
        finalizeIntervalMs: 15_000,
        maxOpenChallenges: 1000,
        burnAddressPoolSize: LARGE_HISTORY_POOL_SIZE,
        burnAddressWorkers: LARGE_HISTORY_WORKERS,
      });
      const env = {
        ...stackEnv,
        PAYMENT_HISTORY_PATH: historyPath,
        HISTORY_IDENTITY_SECRET: randomBytes(24).toString("hex"),
        HISTORY_PAYER_TENANT: BINDINGS.payer.tenantId,
        HISTORY_PAYER_ACTOR: BINDINGS.payer.actorId,
        HISTORY_PROVIDER_TENANT: BINDINGS.provider.tenantId,
        HISTORY_PROVIDER_ACTOR: BINDINGS.provider.actorId,
      };
      return timeStartup(configPath, env, fileRecords);
    };
    progress(`large history: ${(written.bytes / 2 ** 20).toFixed(0)} MiB written in ${(writeMs / 1000).toFixed(1)} s; starting with an empty history`);
    const empty = await start("empty", emptyPath, 0);
    progress(`large history: ready in ${empty.readyMs.toFixed(0)} ms; starting with ${records} records`);
    const large = await start("large", largePath, records);
    progress(`large history: ready in ${large.readyMs.toFixed(0)} ms, folded ${large.recordsLoaded} records in ${large.loadMs} ms`);
    return {
      records,
      fileBytes: written.bytes,
      writeMs,
      empty,
      large,
      targetMs: LARGE_HISTORY_TARGET_MS,
      poolSize: LARGE_HISTORY_POOL_SIZE,
      workers: LARGE_HISTORY_WORKERS,
      durationSeconds: (performance.now() - sectionStarted) / 1000,
    };
  } finally {
    await rm(sectionDir, { recursive: true, force: true });
  }
}
