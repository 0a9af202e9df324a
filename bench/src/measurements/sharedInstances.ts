/**
 * Section 8 (issue 17): facilitator instances sharing one PostgreSQL database. Three figures, each measured
 * against its own baseline in this run:
 * - the settle latency the database adds: sequential permit `/settle` calls (offer and signature prepared
 *   first, only the settle timed), alternating between an instance with the embedded storage and one with
 *   `[storage]`, both running;
 * - sustained offers per second (`POST /challenge` once the burn-address stock is drained, so derivation
 *   bound) through a round-robin over one, then two instances on the database;
 * - paid requests per second (the payer process, permit path, one demo provider in front of the same
 *   round-robin) with one, then two instances.
 * Every instance derives burn addresses on one worker per core, so two instances on this machine share the
 * cores one already uses (and whatever else runs): the ratio is reported as measured. The section's instances
 * relay with keys of their own (funded here), so their nonces never meet those of the run's main facilitator.
 */
import { execFile } from "node:child_process";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  createTestPayer,
  FACILITATOR_CLI,
  readEnvFile,
  startFacilitatorProcess,
  startProviderProcess,
  startRoundRobin,
  type FacilitatorProcess,
} from "@svc/anvil-fixtures";
import { startPostgres } from "@svc/anvil-fixtures/postgres";
import { fromChallengeOffer, offerRequirements, type ChallengeOffer } from "@svc/scheme";
import { createTestClient, http, keccak256, parseEther, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { BenchContext } from "../harness/benchContext.js";
import { BenchError } from "../harness/benchError.js";
import { BENCH_BURN_ADDRESS_WORKERS, writeFacilitatorConfig } from "../harness/facilitatorConfig.js";
import { runLoadTest, type LoadTestResult } from "../harness/loadTest.js";
import { summarize, type Summary } from "../harness/stats.js";

/** Sequential settles timed per storage. */
export const SHARED_SETTLES = 16;

/** Seconds of each offers-per-second run, after a one-second run that drains the stocks. */
export const SHARED_OFFER_SECONDS = 4;

/** Seconds of each paid-requests-per-second run. */
export const SHARED_PAID_SECONDS = 5;

/**
 * Burn addresses each instance keeps pre-derived: small, so the section waits little for refills. The offers
 * run drains it first and a paid request needs a fresh address each, so both rates are the sustained ones.
 */
export const SHARED_POOL_SIZE = 4;

/** Concurrent payers of the paid-request runs (each pays one payment at a time). */
export const SHARED_PAYERS = 8;

/** Connections of the offers-per-second runs. */
export const SHARED_OFFER_CONNECTIONS = 8;

/** List price of the section's `/weather`, base units. */
const PRICE = "1000000000000000";

/** The PostgreSQL instances' relayer key: `keccak256("svc-zerc20/bench-shared-relayer")`, funded by the section. */
const RELAYER_KEY = keccak256(toHex("svc-zerc20/bench-shared-relayer"));

/** The embedded instance's relayer key (it runs beside them and coordinates its nonces in process only). */
const EMBEDDED_RELAYER_KEY = keccak256(toHex("svc-zerc20/bench-embedded-relayer"));

/** One throughput run with one or two instances. */
export type SharedRun = {
  instances: number;
  /** Offers per second once the stocks are drained (2xx only). */
  offersPerSec: number;
  offers: LoadTestResult;
  /** Paid requests that ended in 200, per second. */
  paidPerSec: number;
  paidOk: number;
  /** Paid requests that did not end in 200 (status and reason). */
  paidFailures: string[];
  /** Wall time of each successful paid request, ms. */
  paidMs: Summary;
};

/** What section 8 measured. */
export type SharedInstancesResult = {
  /** `/settle` wall time on the embedded storage, ms. */
  embeddedSettleMs: Summary;
  /** `/settle` wall time on PostgreSQL (one instance), ms. */
  postgresSettleMs: Summary;
  /** Settles that were not accepted (either storage). */
  settleFailures: string[];
  runs: SharedRun[];
  /** Concurrent payers of the paid-request runs. */
  payers: number;
  workersPerInstance: number;
  poolSizePerInstance: number;
  /** The whole section, s. */
  durationSeconds: number;
};

/** What section 8 needs of the run. */
export type SharedInstancesContext = Pick<BenchContext, "dir" | "stack" | "payer" | "payerKey" | "accounts" | "progress">;

const run = promisify(execFile);

async function postJson(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

/** Waits until the instance's burn-address stock is full again (its `/readyz` report), or the deadline passes. */
async function waitForStock(instance: FacilitatorProcess, size: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = (await (await fetch(`${instance.url}/readyz`)).json()) as { components?: { stock?: { detail?: { stocked?: number } } } };
    if ((report.components?.stock?.detail?.stocked ?? 0) >= size) return;
    if (Date.now() > deadline) throw new BenchError(`the burn-address stock of ${instance.url} did not refill within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Times one permit settle on `instance` (its offer fetched and signed first, untimed); undefined when not accepted. */
async function timeOneSettle(context: SharedInstancesContext, instance: FacilitatorProcess, failures: string[]): Promise<number | undefined> {
  const payer = createTestPayer({ rpcUrl: context.stack.deployment.rpcUrl, privateKey: context.payerKey });
  const offer = await postJson(`${instance.url}/challenge`, { amount: PRICE });
  if (offer.status !== 200) throw new BenchError(`POST /challenge answered ${offer.status}`);
  const challenge = offer.json as ChallengeOffer;
  const requirements = offerRequirements(fromChallengeOffer(challenge), Math.max(1, challenge.expiresAt - Math.floor(Date.now() / 1000)));
  const payload = await payer.signPermit(requirements);
  const body = { x402Version: 2, paymentPayload: { x402Version: 2, accepted: requirements, payload }, paymentRequirements: requirements };
  const started = performance.now();
  const settled = await postJson(`${instance.url}/settle`, body);
  const elapsed = performance.now() - started;
  const answer = settled.json as { success?: boolean; errorReason?: string };
  if (answer.success === true) return elapsed;
  failures.push(`settle: HTTP ${settled.status} ${answer.errorReason ?? ""}`.trim());
  return undefined;
}

/** Every payer pays in a loop (one payment at a time each: its permit nonce) until `seconds` have passed. */
async function payFor(context: SharedInstancesContext, url: string, seconds: number): Promise<{ ok: number[]; failures: string[]; wallMs: number }> {
  const ok: number[] = [];
  const failures: string[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    context.accounts.slice(0, SHARED_PAYERS).map(async (account) => {
      while (performance.now() < until) {
        const paid = await context.payer
          .pay("permit", account.privateKey, url)
          .catch((error: unknown) => ({ status: 0, ms: 0, error: String(error), errorReason: undefined }));
        if (paid.status === 200) ok.push(paid.ms);
        else failures.push(`HTTP ${paid.status} ${paid.errorReason ?? paid.error ?? ""}`.trim());
      }
    }),
  );
  return { ok, failures, wallMs: performance.now() - started };
}

/** Runs section 8 and stops everything it started. */
export async function measureSharedInstances(context: SharedInstancesContext): Promise<SharedInstancesResult> {
  const { stack, dir, progress } = context;
  const sectionStarted = performance.now();
  const stoppers: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  try {
    progress("several instances: starting PostgreSQL and an embedded-storage instance");
    const testClient = createTestClient({ mode: "anvil", transport: http(stack.deployment.rpcUrl) });
    for (const key of [RELAYER_KEY, EMBEDDED_RELAYER_KEY]) await testClient.setBalance({ address: privateKeyToAccount(key).address, value: parseEther("100") });
    const stackEnv = await readEnvFile(stack.files.facilitatorEnv);
    const overrides = {
      rpcUrl: stack.deployment.rpcUrl,
      challengeTtlSeconds: 600,
      // The offer floods leave many challenges open; the cap must not be what the run measures.
      maxOpenChallenges: 100_000,
      finalizeIntervalMs: 15_000,
      burnAddressPoolSize: SHARED_POOL_SIZE,
      burnAddressWorkers: BENCH_BURN_ADDRESS_WORKERS,
    };
    const embeddedConfig = join(dir, "shared-embedded.toml");
    await writeFacilitatorConfig(stack.files.facilitatorToml, embeddedConfig, { ...overrides, journal: "shared-embedded-journal.jsonl" });
    const [postgres, embedded] = await Promise.all([
      startPostgres(),
      startFacilitatorProcess({ configPath: embeddedConfig, env: { ...stackEnv, SVC_RELAYER_PK: EMBEDDED_RELAYER_KEY } }),
    ]);
    stoppers.push(postgres.stop);
    stoppers.push(() => embedded.stop("SIGKILL"));
    const url = new URL(await postgres.createDatabase());
    const sharedEnv = { ...stackEnv, SVC_RELAYER_PK: RELAYER_KEY, SVC_STORAGE_PASSWORD: decodeURIComponent(url.password) };
    url.password = "";
    const sharedConfig = join(dir, "shared-postgres.toml");
    await writeFacilitatorConfig(stack.files.facilitatorToml, sharedConfig, { ...overrides, journal: "shared-postgres-journal.jsonl" });
    await appendFile(sharedConfig, `\n[storage]\nurl = "${url.toString()}"\n`);
    await run(process.execPath, [FACILITATOR_CLI, "migrate", "--config", sharedConfig], { env: { PATH: process.env.PATH ?? "", ...sharedEnv } });

    progress("several instances: starting two instances on PostgreSQL, a round-robin and a provider");
    const [first, second] = await Promise.all([
      startFacilitatorProcess({ configPath: sharedConfig, env: sharedEnv }),
      startFacilitatorProcess({ configPath: sharedConfig, env: sharedEnv }),
    ]);
    stoppers.push(() => first.stop("SIGKILL"));
    stoppers.push(() => second.stop("SIGKILL"));
    let live: FacilitatorProcess[] = [first];
    const front = await startRoundRobin(() => live.map((instance) => instance.url));
    stoppers.push(front.stop);
    const provider = await startProviderProcess({ facilitatorUrl: front.url, price: PRICE });
    stoppers.push(() => provider.stop());

    // Alternating settles, so both storages see the same background (another process's CPU, the chain's size).
    await Promise.all([embedded, first, second].map((instance) => waitForStock(instance, SHARED_POOL_SIZE)));
    progress(`several instances: ${SHARED_SETTLES} sequential permit settles on each storage, alternating`);
    const settleFailures: string[] = [];
    const embeddedSettles: number[] = [];
    const postgresSettles: number[] = [];
    for (let index = 0; index < SHARED_SETTLES; index++) {
      const onEmbedded = await timeOneSettle(context, embedded, settleFailures);
      if (onEmbedded !== undefined) embeddedSettles.push(onEmbedded);
      const onPostgres = await timeOneSettle(context, first, settleFailures);
      if (onPostgres !== undefined) postgresSettles.push(onPostgres);
    }
    await embedded.stop("SIGKILL");

    const runs: SharedRun[] = [];
    for (const instances of [[first], [first, second]]) {
      live = instances;
      await Promise.all(instances.map((instance) => waitForStock(instance, SHARED_POOL_SIZE)));
      progress(`several instances: offers and paid requests per second with ${instances.length} instance(s)`);
      const body = JSON.stringify({ amount: PRICE });
      await runLoadTest({ url: `${front.url}/challenge`, method: "POST", body, connections: SHARED_OFFER_CONNECTIONS, durationSec: 1 });
      const offers = await runLoadTest({
        url: `${front.url}/challenge`,
        method: "POST",
        body,
        connections: SHARED_OFFER_CONNECTIONS,
        durationSec: SHARED_OFFER_SECONDS,
      });
      await Promise.all(instances.map((instance) => waitForStock(instance, SHARED_POOL_SIZE)));
      const paid = await payFor(context, `${provider.url}/weather`, SHARED_PAID_SECONDS);
      runs.push({
        instances: instances.length,
        offersPerSec: offers.okPerSec,
        offers,
        paidPerSec: paid.ok.length / (paid.wallMs / 1000),
        paidOk: paid.ok.length,
        paidFailures: paid.failures,
        paidMs: summarize(paid.ok),
      });
    }
    return {
      embeddedSettleMs: summarize(embeddedSettles),
      postgresSettleMs: summarize(postgresSettles),
      settleFailures,
      runs,
      payers: Math.min(SHARED_PAYERS, context.accounts.length),
      workersPerInstance: BENCH_BURN_ADDRESS_WORKERS,
      poolSizePerInstance: SHARED_POOL_SIZE,
      durationSeconds: (performance.now() - sectionStarted) / 1000,
    };
  } finally {
    await stopAll();
  }
}
