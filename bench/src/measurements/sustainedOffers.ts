/**
 * Section 9, on the stack: sustained offers per second once the burn-address stock is empty, per version,
 * each on a facilitator of its own (a fresh journal and stock, nothing else asking it for work) running the
 * default search path. The v2 run uses the run's stack; the v1 run a v1 stack started here (anvil and
 * contracts; its indexer is closed at once, as the main stack's is). Other paths are compared in process
 * only, to keep the run short (a daemon started with `SVC_POSEIDON_PATH` searches on the path it names).
 *
 * One run: wait for the stock to fill, then send the stock plus N offers at 16 connections; every offer past
 * the stock waits for a derivation, so N over the time to the last answer is the rate the workers sustain. N
 * is sized from the path's in-process cost for about {@link SUSTAINED_SECONDS} s. Around the run the CPU of
 * the facilitator's workers and other threads, of this process (autocannon) and of the whole machine is read,
 * so the report can say where the two cores went.
 */
import { join } from "node:path";
import type { NativePoseidonPath, ProtocolVersion } from "@svc/scheme";
import { startStack, type RunningStack } from "@svc/anvil-fixtures";
import type { BenchContext } from "../harness/benchContext.js";
import { BenchError } from "../harness/benchError.js";
import { BENCH_BURN_ADDRESS_WORKERS } from "../harness/facilitatorConfig.js";
import { runLoadTest, type LoadTestResult } from "../harness/loadTest.js";
import { readMachineCpu, readProcessCpuMs } from "../harness/procStats.js";
import { startOurFacilitator } from "../harness/startOurFacilitator.js";
import type { PoseidonPathsResult } from "./poseidonPaths.js";

/** How long each run should last at the rate the in-process cost implies, s. */
export const SUSTAINED_SECONDS = 5;

/** Connections of each run: enough waiting offers that no worker ever idles. */
export const SUSTAINED_CONNECTIONS = 16;

/** Burn addresses each of the section's facilitators keeps: small, so the wait for the first stock stays short. */
export const SUSTAINED_POOL_SIZE = 4;

/** Bounds on the offers past the stock (the upper one keeps the open challenges under the daemon's cap of 1000). */
const OFFERS = { min: 8, max: 800 };

/** The versions measured, in order. */
export const SUSTAINED_VERSIONS: readonly ProtocolVersion[] = ["zerc20-v2", "zerc20-v1"];

/** One run's figures; CPU per offer is the run's CPU over the offers answered past the stock. */
export type SustainedRun = {
  protocol: ProtocolVersion;
  /** The path the daemon's workers ran (the default one). */
  path: NativePoseidonPath;
  workers: number;
  stock: number;
  /** Offers sent past the stock. */
  offers: number;
  load: LoadTestResult;
  /** Offers past the stock answered 2xx, per second of the run. */
  offersPerSec: number;
  workerCpuMsPerOffer: number;
  /** The facilitator's other threads (HTTP, journal, logging, GC), per offer. */
  requestCpuMsPerOffer: number;
  /** This process (autocannon, which sends the offers), per offer. */
  loadCpuMsPerOffer: number;
  /** Every other process on the machine, per offer. */
  otherCpuMsPerOffer: number;
  /** CPU the machine had and did not use, and time the hypervisor gave elsewhere, per offer. */
  idleMsPerOffer: number;
  stealMsPerOffer: number;
};

/** What the sustained runs found. */
export type SustainedOffersResult = {
  runs: SustainedRun[];
  /** Runs not made, and why. */
  skipped: { protocol: ProtocolVersion; reason: string }[];
  /** Time to start the v1 stack, s. */
  v1StackSeconds: number;
};

/** Runs every {@link SUSTAINED_VERSIONS} entry on the default path, when the addon is in use. */
export async function measureSustainedOffers(context: BenchContext, poseidon: PoseidonPathsResult): Promise<SustainedOffersResult> {
  const { progress } = context;
  const runs: SustainedRun[] = [];
  const skipped: SustainedOffersResult["skipped"] = [];
  let v1Stack: RunningStack | undefined;
  let v1StackSeconds = 0;
  try {
    for (const protocol of SUSTAINED_VERSIONS) {
      const path = poseidon.defaultPath;
      const cost = poseidon.paths.find((entry) => entry.path === path);
      if (path === undefined || cost === undefined || !cost.available) {
        skipped.push({ protocol, reason: "the native addon is not in use" });
        continue;
      }
      let stack = context.stack;
      if (protocol !== context.stack.deployment.protocol) {
        if (v1Stack === undefined) {
          progress(`sustained offers: starting a ${protocol} stack`);
          const started = performance.now();
          v1Stack = await startStack({ dir: join(context.dir, protocol), protocol, facilitatorPort: 0, rootIntervalMs: 0 });
          await v1Stack.indexer.close();
          v1StackSeconds = (performance.now() - started) / 1000;
        }
        stack = v1Stack;
      }
      progress(`sustained offers: ${protocol} on ${path}`);
      const expectedPerSec = (BENCH_BURN_ADDRESS_WORKERS * 1000) / cost.byVersion[protocol].expectedMsPerAddress;
      const offers = Math.min(OFFERS.max, Math.max(OFFERS.min, Math.round(expectedPerSec * SUSTAINED_SECONDS)));
      runs.push({ protocol, path, ...(await sustainedRun(context, stack, protocol, offers)) });
    }
  } finally {
    await v1Stack?.stop();
  }
  return { runs, skipped, v1StackSeconds };
}

async function sustainedRun(
  context: BenchContext,
  stack: RunningStack,
  protocol: ProtocolVersion,
  offers: number,
): Promise<Omit<SustainedRun, "protocol" | "path">> {
  const name = `sustained-${protocol}`;
  const facilitator = await startOurFacilitator({
    stack,
    dir: context.dir,
    name,
    price: "1000000000000000",
    poolSize: SUSTAINED_POOL_SIZE,
    overrides: { finalizeIntervalMs: 1000, challengeTtlSeconds: 300, maxOpenChallenges: 1000 },
  });
  try {
    await facilitator.waitForFullStock();
    const pid = facilitator.facilitatorPid;
    const before = { workers: facilitator.workerCpuMs(), facilitator: readProcessCpuMs(pid), bench: readProcessCpuMs(process.pid), machine: readMachineCpu() };
    const load = await runLoadTest({
      url: `${facilitator.facilitator.url}/challenge`,
      method: "POST",
      body: JSON.stringify({ amount: facilitator.price }),
      // autocannon sends at least one request per connection.
      connections: Math.min(SUSTAINED_CONNECTIONS, facilitator.poolSize + offers),
      amount: facilitator.poolSize + offers,
    });
    const workers = facilitator.workerCpuMs() - before.workers;
    const facilitatorMs = readProcessCpuMs(pid) - before.facilitator;
    const benchMs = readProcessCpuMs(process.pid) - before.bench;
    const machine = readMachineCpu();
    const sustained = load.ok - facilitator.poolSize;
    if (sustained <= 0) throw new BenchError(`${name}: no offer past the stock was answered (${load.non2xx} non-2xx, ${load.errors} errors)`);
    // The window's CPU is what sustaining these offers cost (the stock's few answers ride along).
    const perOffer = (ms: number) => ms / sustained;
    return {
      workers: facilitator.workers,
      stock: facilitator.poolSize,
      offers,
      load,
      offersPerSec: sustained / load.durationSec,
      workerCpuMsPerOffer: perOffer(workers),
      requestCpuMsPerOffer: perOffer(facilitatorMs - workers),
      loadCpuMsPerOffer: perOffer(benchMs),
      otherCpuMsPerOffer: perOffer(Math.max(0, machine.busyMs - before.machine.busyMs - facilitatorMs - benchMs)),
      idleMsPerOffer: perOffer(machine.idleMs - before.machine.idleMs),
      stealMsPerOffer: perOffer(machine.stealMs - before.machine.stealMs),
    };
  } finally {
    await facilitator.stop();
  }
}
