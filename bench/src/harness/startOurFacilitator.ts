/**
 * One of our facilitators as the bench runs it: the built daemon (`facilitator/dist/cli.js start`) with a
 * variant of the stack's configuration, reaching anvil through its own counting JSON-RPC proxy, and the
 * built demo provider (`provider-demo/dist/server.js`) in front of it.
 */
import { join } from "node:path";
import {
  readEnvFile,
  startFacilitatorProcess,
  startProviderProcess,
  type FacilitatorProcess,
  type ProviderProcess,
  type RunningStack,
} from "@svc/anvil-fixtures";
import { BenchError } from "./benchError.js";
import { startCountingRpcProxy, type CountingRpcProxy } from "./countingRpcProxy.js";
import { BENCH_BURN_ADDRESS_POOL_SIZE, BENCH_BURN_ADDRESS_WORKERS, writeFacilitatorConfig, type FacilitatorConfigOverrides } from "./facilitatorConfig.js";
import { attachInspector, INSPECT_NODE_OPTIONS, type InspectorSession } from "./inspectorSession.js";
import { readThreadCpu, readThreadCpuMs, readThreadNice } from "./procStats.js";
import { waitForCpuIdle } from "./waitForCpuIdle.js";

/** A running facilitator + provider pair of ours. */
export type OurFacilitator = {
  /** Label used in file names. */
  name: string;
  proxy: CountingRpcProxy;
  facilitator: FacilitatorProcess;
  facilitatorPid: number;
  /** DevTools session on the facilitator's main thread (heap after GC, CPU profiles). */
  inspector: InspectorSession;
  /** The demo provider in front of it; `url` is its base URL. */
  provider: ProviderProcess & { pid: number };
  /** Bearer token of `/admin/*`. */
  adminToken: string;
  /** The price of `GET /weather` in base units (list price; the offer adds the 1% payer fee). */
  price: string;
  /** Burn addresses the facilitator keeps pre-derived (`daemon.burn_address_pool_size`). */
  poolSize: number;
  /** Burn-address worker threads (`daemon.burn_address_workers`). */
  workers: number;
  /** Waits until the burn-address stock is full (the process is idle) and returns the wait in ms. */
  waitForFullStock: () => Promise<number>;
  /** Burn-address worker threads alive now (the daemon runs them at a raised nice value; idle ones exit). */
  workerThreads: () => number[];
  /**
   * Cumulative CPU ms of the burn-address worker threads seen so far. Workers exit when idle and new ones
   * start on demand, so each reading adds the threads alive now to those seen before; a thread keeps its last
   * reading once gone (it idled for seconds before exiting, so little of its CPU goes unseen).
   */
  workerCpuMs: () => number;
  /** `POST /challenge` straight to the facilitator, as the provider plugin does. */
  challenge: () => Promise<{ status: number; body: string }>;
  /** `GET /admin/challenges`. */
  openChallenges: () => Promise<{ open: number; retainedExpired: number; maxOpen: number }>;
  stop: () => Promise<void>;
};

/** Options of {@link startOurFacilitator}. */
export type StartOurFacilitatorParameters = {
  stack: RunningStack;
  /** Folder for this facilitator's configuration and journal. */
  dir: string;
  name: string;
  price: string;
  overrides: Omit<FacilitatorConfigOverrides, "rpcUrl" | "journal" | "burnAddressPoolSize" | "burnAddressWorkers">;
  /** Variables added to the stack's `facilitator.env` (e.g. `SVC_MINTER_PK`). */
  env?: Record<string, string>;
  /** Burn addresses kept pre-derived; default {@link BENCH_BURN_ADDRESS_POOL_SIZE}, the daemon's own default. */
  poolSize?: number;
  /** Options given to `node` before the CLI, e.g. `--cpu-prof` (the profile runner), which `NODE_OPTIONS` refuses. */
  nodeArgs?: readonly string[];
};

/** Starts proxy, facilitator and provider; on failure stops what it started and rethrows. */
export async function startOurFacilitator(parameters: StartOurFacilitatorParameters): Promise<OurFacilitator> {
  const { stack, dir, name } = parameters;
  const poolSize = parameters.poolSize ?? BENCH_BURN_ADDRESS_POOL_SIZE;
  const stoppers: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  try {
    const proxy = await startCountingRpcProxy({ target: stack.deployment.rpcUrl });
    stoppers.push(proxy.close);
    const configPath = join(dir, `${name}.toml`);
    await writeFacilitatorConfig(stack.files.facilitatorToml, configPath, {
      ...parameters.overrides,
      rpcUrl: proxy.url,
      journal: `${name}-journal.jsonl`,
      burnAddressPoolSize: poolSize,
      burnAddressWorkers: BENCH_BURN_ADDRESS_WORKERS,
    });
    const env = await readEnvFile(stack.files.facilitatorEnv);
    const facilitator = await startFacilitatorProcess({
      configPath,
      env: {
        ...env,
        ...parameters.env,
        NODE_OPTIONS: INSPECT_NODE_OPTIONS,
      },
      ...(parameters.nodeArgs === undefined ? {} : { nodeArgs: parameters.nodeArgs }),
    });
    stoppers.push(() => facilitator.stop());
    const inspector = await attachInspector("the facilitator", facilitator.lines);
    stoppers.push(async () => inspector.close());
    const facilitatorPid = facilitator.child.pid;
    if (facilitatorPid === undefined) throw new BenchError("the facilitator process has no pid");

    const provider = await startProviderProcess({ facilitatorUrl: facilitator.url, price: parameters.price });
    stoppers.push(() => provider.stop());
    const providerPid = provider.child.pid;
    if (providerPid === undefined || provider.url === "") throw new BenchError("the provider did not report its pid and url");

    const adminToken = env.SVC_ADMIN_TOKEN ?? "";
    const workerThreads = () => [...readThreadCpu(facilitatorPid).keys()].filter((tid) => (readThreadNice(facilitatorPid, tid) ?? 0) > 0);
    const workerCpu = new Map<number, number>();
    return {
      name,
      proxy,
      facilitator,
      facilitatorPid,
      inspector,
      provider: { ...provider, pid: providerPid },
      adminToken,
      price: parameters.price,
      poolSize,
      workers: BENCH_BURN_ADDRESS_WORKERS,
      workerThreads,
      workerCpuMs: () => {
        for (const tid of workerThreads()) workerCpu.set(tid, readThreadCpuMs(facilitatorPid, tid));
        let total = 0;
        for (const ms of workerCpu.values()) total += ms;
        return total;
      },
      // Whichever worker threads are alive at each look: they exit when idle and start again on demand.
      waitForFullStock: () => waitForCpuIdle({ pid: facilitatorPid, tids: workerThreads, timeoutMs: 180_000 }),
      challenge: async () => {
        const response = await fetch(`${facilitator.url}/challenge`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ amount: parameters.price }),
        });
        return { status: response.status, body: await response.text() };
      },
      openChallenges: async () => {
        const response = await fetch(`${facilitator.url}/admin/challenges`, { headers: { authorization: `Bearer ${adminToken}` } });
        const body: unknown = await response.json();
        const record: Record<string, unknown> = typeof body === "object" && body !== null ? { ...body } : {};
        return { open: Number(record.open), retainedExpired: Number(record.retainedExpired), maxOpen: Number(record.maxOpen) };
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
