/**
 * Section 2, second half (and the RPC columns of section 6): JSON-RPC round trips and calls by method of one
 * `/verify` and one `/settle` on each path (our permit, our self-transfer, the official exact scheme), read
 * from the counting proxy in front of each facilitator around each call. The payment is created by the payer
 * against a real 402, and the bench calls the facilitator exactly as the provider middleware does. The
 * facilitator's main thread is CPU-profiled over the verify + settle windows only (so these latencies carry
 * the sampling overhead; the clean ones are in sections 1 and 2).
 *
 * The proxy counts every trip of its facilitator, background work included: the finalize loop's passes (every
 * second on the shared facilitator, with the earlier sections' payments pending) and the relayer monitor's
 * nonce checks after a relay landed in a window at random and added one or two trips to a call (a
 * self-transfer settle counted 2 to 4). So our paths are counted on a facilitator of their own with those
 * quiet: finalize passes far apart, a relayer key of its own (funded here; the shared facilitator keeps its
 * nonces), a monitor that clears a mined relay within a fifth of a second, and each pair timed only once the
 * proxy has been idle for {@link QUIET_MS}; one unmeasured pair per path first takes the endpoint's chain-id
 * check and the token name read, which a facilitator makes once.
 */
import { keccak256, parseEther, toHex, createTestClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { BenchContext } from "../harness/benchContext.js";
import { BenchError } from "../harness/benchError.js";
import { diffRpcCounts, type CountingRpcProxy, type RpcCounts } from "../harness/countingRpcProxy.js";
import { profiled, summarizeProfiles, type CpuProfile, type ProfileSummary } from "../harness/cpuProfile.js";
import type { InspectorSession } from "../harness/inspectorSession.js";
import { booleanField, postJson } from "../harness/postJson.js";
import type { PreparedPayment } from "../harness/startPayer.js";
import { startOurFacilitator, type OurFacilitator } from "../harness/startOurFacilitator.js";
import { summarize, type Summary } from "../harness/stats.js";
import type { PayerScheme } from "../servers/payerProtocol.js";

/** The counts and latency of one facilitator call on one path. */
export type RpcCallProfile = {
  /** Latency of the call from the bench, ms. */
  ms: Summary;
  /** Round trips per call over the runs. */
  roundTrips: Summary;
  /** JSON-RPC calls per call over the runs. */
  calls: Summary;
  /** Calls by method of the median run (by round trips). */
  byMethod: Record<string, number>;
  /** The round trips of the median run in order, each as its methods (a batch has several). */
  sequence: string[][];
};

/** Verify and settle profiles of one path, and where the facilitator's main thread spent its CPU on them. */
export type RpcPathProfile = { verify: RpcCallProfile; settle: RpcCallProfile; cpuProfile: ProfileSummary };

/** What the RPC measurement found. */
export type RpcRoundTripsResult = { paths: Record<PayerScheme, RpcPathProfile>; failures: string[] };

type CallSample = { ms: number; counts: RpcCounts; sequence: string[][] };

/** The relayer of the facilitator the counts are taken on: a key of its own, so the shared one keeps its nonces. */
const COUNTING_RELAYER_KEY = keccak256(toHex("svc-zerc20/bench-rpc-counts-relayer"));
/** How long the proxy must have seen nothing before a measured pair (over twice the monitor's pass interval). */
const QUIET_MS = 500;
/** The longest wait for {@link QUIET_MS} of quiet. */
const QUIET_DEADLINE_MS = 15_000;

/** Resolves once `proxy` has seen no round trip for `quietMs`; throws past the deadline. */
async function waitForRpcQuiet(proxy: CountingRpcProxy, quietMs = QUIET_MS): Promise<void> {
  const giveUpAt = performance.now() + QUIET_DEADLINE_MS;
  let seen = proxy.counts().roundTrips;
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    if (performance.now() > giveUpAt) throw new BenchError(`the RPC proxy never went ${quietMs} ms without a request`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = proxy.counts().roundTrips;
    if (now !== seen) {
      seen = now;
      since = performance.now();
    }
  }
}

function profile(samples: CallSample[]): RpcCallProfile {
  const byTrips = [...samples].sort((a, b) => a.counts.roundTrips - b.counts.roundTrips);
  const median = byTrips[Math.floor((byTrips.length - 1) / 2)];
  return {
    ms: summarize(samples.map((sample) => sample.ms)),
    roundTrips: summarize(samples.map((sample) => sample.counts.roundTrips)),
    calls: summarize(samples.map((sample) => sample.counts.calls)),
    byMethod: median?.counts.byMethod ?? {},
    sequence: median?.sequence ?? [],
  };
}

/** Runs the RPC count measurement. */
export async function measureRpcRoundTrips(context: BenchContext): Promise<RpcRoundTripsResult> {
  const { stack, ours, progress } = context;
  progress("rpc round trips: starting a facilitator of their own (finalize passes off, relayer key of its own)");
  const testClient = createTestClient({ mode: "anvil", transport: http(stack.deployment.rpcUrl) });
  await testClient.setBalance({ address: privateKeyToAccount(COUNTING_RELAYER_KEY).address, value: parseEther("100") });
  const counted = await startOurFacilitator({
    stack,
    dir: context.dir,
    name: "rpc-counts",
    price: ours.price,
    overrides: { finalizeIntervalMs: 3_600_000, challengeTtlSeconds: 1800, maxOpenChallenges: 1000, replaceAfterSeconds: 0.6 },
    env: { SVC_RELAYER_PK: COUNTING_RELAYER_KEY },
  });
  try {
    return await countPaths(context, counted);
  } finally {
    await counted.stop();
  }
}

async function countPaths(context: BenchContext, ours: OurFacilitator): Promise<RpcRoundTripsResult> {
  const { exact, payer, payerKey, config, progress } = context;
  type Target = { providerUrl: string; facilitatorUrl: string; proxy: CountingRpcProxy; inspector: InspectorSession };
  const oursTarget: Target = { providerUrl: ours.provider.url, facilitatorUrl: ours.facilitator.url, proxy: ours.proxy, inspector: ours.inspector };
  const targets: Record<PayerScheme, Target> = {
    permit: oursTarget,
    "self-transfer": oursTarget,
    exact: { providerUrl: exact.provider.url, facilitatorUrl: exact.facilitator.url, proxy: exact.proxy, inspector: exact.inspector },
  };
  const failures: string[] = [];
  const measurePath = async (scheme: PayerScheme): Promise<RpcPathProfile> => {
    progress(`rpc round trips: ${scheme}`);
    const target = targets[scheme];
    const verify: CallSample[] = [];
    const settle: CallSample[] = [];
    const profiles: CpuProfile[] = [];
    const preparedAll: PreparedPayment[] = [];
    // One unmeasured pair first: what a facilitator reads once (the endpoint's chain id, the token name).
    for (let run = 0; run <= config.rpcRuns; run++) {
      // Permits signed before any settles must come from distinct payers (each signs its live token nonce).
      const key = scheme === "permit" ? (context.accounts[run]?.privateKey ?? payerKey) : payerKey;
      preparedAll.push(await payer.prepare(scheme, key, `${target.providerUrl}/weather`));
    }
    // Timed with the burn-address worker idle (the payments above each took an offer).
    await ours.waitForFullStock();
    for (const [index, prepared] of preparedAll.entries()) {
      const body = { x402Version: 2, paymentPayload: prepared.paymentPayload, paymentRequirements: prepared.requirements };
      await waitForRpcQuiet(target.proxy);
      if (index === 0) {
        await postJson(`${target.facilitatorUrl}/verify`, body);
        await postJson(`${target.facilitatorUrl}/settle`, body);
        continue;
      }
      const { result, profile } = await profiled(target.inspector, async () => {
        const beforeVerify = target.proxy.counts();
        const verified = await postJson(`${target.facilitatorUrl}/verify`, body);
        const afterVerify = target.proxy.counts();
        const settled = await postJson(`${target.facilitatorUrl}/settle`, body);
        return { verified, settled, beforeVerify, afterVerify, afterSettle: target.proxy.counts() };
      });
      profiles.push(profile);
      const { verified, settled, beforeVerify, afterVerify, afterSettle } = result;
      if (!booleanField(verified.body, "isValid")) failures.push(`${scheme} verify: ${JSON.stringify(verified.body)}`);
      if (!booleanField(settled.body, "success")) failures.push(`${scheme} settle: ${JSON.stringify(settled.body)}`);
      const trips = (from: RpcCounts, to: RpcCounts) => target.proxy.trips(from.roundTrips, to.roundTrips);
      verify.push({ ms: verified.ms, counts: diffRpcCounts(beforeVerify, afterVerify), sequence: trips(beforeVerify, afterVerify) });
      settle.push({ ms: settled.ms, counts: diffRpcCounts(afterVerify, afterSettle), sequence: trips(afterVerify, afterSettle) });
    }
    return { verify: profile(verify), settle: profile(settle), cpuProfile: summarizeProfiles(profiles) };
  };
  const paths: Record<PayerScheme, RpcPathProfile> = {
    permit: await measurePath("permit"),
    "self-transfer": await measurePath("self-transfer"),
    exact: await measurePath("exact"),
  };
  return { paths, failures };
}
