/**
 * Section 7 (issue 19): the anonymity set a chain observer faces for each mint, under the local stack's
 * default finalize policy and under the recommended production policy, with the time each costs.
 *
 * Each policy gets its own facilitator (same stack configuration; the recommended one adds the `[finalize]`
 * table and a separate mint key, `SVC_MINTER_PK`) with three demo providers in front of it at three prices. The same seeded arrivals
 * (exponential gaps, prices shuffled in equal shares) pay each through the payer process (permit path), the
 * finalize loop mints them, and the observer's view is then read back from anvil's logs alone (burns and
 * mints of the phase's block range; `@svc/anvil-fixtures/observer` defines the sets). The same view is scored as
 * the observer who knows the phase's policy, against the ground truth of `/admin/settlements`, with the
 * `/proofs` requests the facilitator sent through a recording proxy in front of the indexer (issue 30).
 * Accepted → finalized comes from the facilitator's own log events.
 *
 * A production policy holds payments for minutes, which a bench cannot wait for. Anonymity depends on how
 * many same-amount payments arrive within the delay window, not on the clock, so the recommended policy runs
 * compressed by {@link TIME_COMPRESSION}: its delays in seconds instead of minutes and arrivals that much
 * faster (the finalize loop stays at the daemon's 1 s minimum). The figures are the production policy's at
 * the stated production arrival rate; its times scale back by the same factor. The local default has no
 * delay to compress (its wait is the loop, the root job and the proof, in real time), so it runs at the same
 * bench arrivals, which is the production rate sped up and flatters it; the report says by how much.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { FIXTURE_PROVER_PRIVATE_KEY, startIndexer, startProviderProcess, type ProviderProcess } from "@svc/anvil-fixtures";
import { createPublicClient, createTestClient, http, keccak256, parseEther, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { BenchContext } from "../harness/benchContext.js";
import { eventTimes, parseLogEvents } from "../harness/facilitatorLog.js";
import type { FinalizePolicy } from "../harness/facilitatorConfig.js";
import { startOurFacilitator, type OurFacilitator } from "../harness/startOurFacilitator.js";
import { summarize, type Summary } from "../harness/stats.js";
import {
  anonymitySets,
  consistentSlack,
  readGroundTruth,
  readObservedChain,
  recordProofRequests,
  scoreRun,
  type DecoyFigures,
  type ObserverFigures,
  type ObserverPolicy,
} from "@svc/anvil-fixtures/observer";
import { arrivalSchedule } from "../privacy/arrivalSchedule.js";

/** List prices of the three providers (0.002, 0.005 and 0.01 zERC20; offers add the stack's 1% payer fee). */
export const PRIVACY_PRICES = ["2000000000000000", "5000000000000000", "10000000000000000"] as const;

/** Payments per policy. */
export const PRIVACY_PAYMENTS = 51;

/** The recommended production policy of facilitator/README.md ("Finalize schedule"), in real seconds. */
export const RECOMMENDED_POLICY: FinalizePolicy = { minDelaySeconds: 60, maxDelaySeconds: 1800, minAnonymitySet: 3 };

/**
 * How much faster than production the recommended policy runs here (delays and arrivals alike). The daemon
 * takes whole seconds, so 60 is the largest factor that keeps the recommended delays whole.
 */
export const TIME_COMPRESSION = 60;

/** Mean gap between arrivals in the bench, ms: one payment every 24 s in production terms (150 an hour over three prices). */
export const PRIVACY_MEAN_GAP_MS = 400;

/** The policy phase's mint key (`SVC_MINTER_PK`, separate hands as recommended): `keccak256("svc-zerc20/bench-minter")`. */
const MINTER_KEY = keccak256(toHex("svc-zerc20/bench-minter"));

/** Finalize loop interval of the compressed policy, ms: the daemon's minimum (60 s in production terms, coarser than a production loop). */
const POLICY_FINALIZE_INTERVAL_MS = 1000;

/** The stack's finalize loop interval (the local default). */
const LOCAL_FINALIZE_INTERVAL_MS = 1000;

/** Root job interval of the indexer this section runs (the stack's default). */
const ROOT_INTERVAL_MS = 500;

/**
 * How long past its maximum delay the observer lets a mint land at least, s of bench time: the confirmations
 * before acceptance, the loop, the root job and the proof (4 min in production terms, generous next to a 1 min
 * loop). Where the run needs more for every mint to keep a burn in its window (the local default, whose wait
 * is the loop and the proof under load), the observer takes the smallest slack that does (`consistentSlack`).
 */
export const OBSERVER_SLACK_SECONDS = 4;

/** Seed of the arrivals, shared by both policies. */
const ARRIVAL_SEED = 19;

/** One policy's run. */
export type PrivacyPhaseResult = {
  /** The `[finalize]` keys as configured here (compressed); absent: the local default (no table). */
  policy: FinalizePolicy | undefined;
  /** Finalize loop interval, ms. */
  finalizeIntervalMs: number;
  payments: number;
  accepted: number;
  /** Mints the observer saw in the phase's block range. */
  mints: number;
  /** Per mint: earlier same-amount burns minus earlier same-amount mints (the figure). */
  unmintedBurns: Summary;
  /** Per mint: earlier same-amount burns that some consistent assignment could have minted here. */
  possibleSources: Summary;
  /** Median unminted burns per list price (base units). */
  unmintedMedianByPrice: Record<string, number>;
  /** From `payment_accepted` to `payment_finalized` in the facilitator's log, ms (bench time). */
  acceptedToFinalizedMs: Summary;
  /** Mint transactions sent by an account that also sent a burn (the same-sender link). */
  mintsBySameSender: number;
  /** What the observer who knows this policy gets, scored against the ground truth (`@svc/anvil-fixtures/observer`). */
  observer: ObserverFigures | undefined;
  /** Decoys left in the `/proofs` requests after filtering by value and source. */
  decoys: DecoyFigures | undefined;
  /** The observer's slack past the maximum delay, s of bench time. */
  observerSlackSeconds: number;
  /** From the first arrival to the last mint, s. */
  wallSeconds: number;
  failures: string[];
};

/** What section 7 measured. */
export type PrivacyResult = {
  compression: number;
  meanGapMs: number;
  prices: readonly string[];
  /** The recommended policy in production seconds. */
  recommended: FinalizePolicy;
  /** The observer's slack past the maximum delay, s of bench time. */
  slackSeconds: number;
  local: PrivacyPhaseResult;
  policy: PrivacyPhaseResult;
  /** The whole section, s. */
  durationSeconds: number;
};

/** What section 7 needs of the run. */
export type PrivacyContext = Pick<BenchContext, "dir" | "stack" | "payer" | "accounts" | "progress">;

function compressed(policy: FinalizePolicy): FinalizePolicy {
  return {
    minDelaySeconds: policy.minDelaySeconds / TIME_COMPRESSION,
    maxDelaySeconds: policy.maxDelaySeconds / TIME_COMPRESSION,
    minAnonymitySet: policy.minAnonymitySet,
  };
}

/** The facilitator's own reason when it refused to start (its `start_failed` log line), else the error's first line. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const meta = "metaMessages" in error && Array.isArray(error.metaMessages) ? error.metaMessages.map(String) : [];
  const cause = [error.message, ...meta].join("\n").match(/"event":"start_failed".*?"cause":"((?:[^"\\]|\\.)*)"/)?.[1];
  return (cause?.replaceAll('\\"', '"') ?? error.message.split("\n")[0] ?? "").slice(0, 300);
}

function emptyPhase(policy: FinalizePolicy | undefined, finalizeIntervalMs: number, failures: string[]): PrivacyPhaseResult {
  return {
    policy,
    finalizeIntervalMs,
    payments: 0,
    accepted: 0,
    mints: 0,
    unmintedBurns: summarize([]),
    possibleSources: summarize([]),
    unmintedMedianByPrice: {},
    acceptedToFinalizedMs: summarize([]),
    mintsBySameSender: 0,
    observer: undefined,
    decoys: undefined,
    observerSlackSeconds: Number.NaN,
    wallSeconds: Number.NaN,
    failures,
  };
}

/** Runs one policy on a fresh facilitator and three providers, then reads the observer's view of its range. */
async function runPhase(context: PrivacyContext, name: string, policy: FinalizePolicy | undefined, finalizeIntervalMs: number): Promise<PrivacyPhaseResult> {
  const { stack, dir, payer, accounts, progress } = context;
  const failures: string[] = [];
  let facilitator: OurFacilitator;
  if (policy !== undefined) {
    const testClient = createTestClient({ mode: "anvil", transport: http(stack.deployment.rpcUrl) });
    await testClient.setBalance({ address: privateKeyToAccount(MINTER_KEY).address, value: parseEther("10") });
  }
  // The indexer operator's view: every /proofs request this facilitator sends, through a recording proxy.
  const recorder = await recordProofRequests(stack.deployment.indexerUrl);
  try {
    facilitator = await startOurFacilitator({
      stack,
      dir,
      name,
      price: PRIVACY_PRICES[0],
      overrides: {
        finalizeIntervalMs,
        challengeTtlSeconds: 300,
        maxOpenChallenges: 1000,
        indexerUrl: recorder.url,
        // The indexer's paths: the setting where its operator observes too, so the decoys are scored (under the
        // default "self" the indexer hears no /proofs at all).
        witnesses: "indexer",
        ...(policy === undefined ? {} : { finalizePolicy: policy }),
      },
      ...(policy === undefined ? {} : { env: { SVC_MINTER_PK: MINTER_KEY } }),
    });
  } catch (error) {
    await recorder.close();
    return emptyPhase(policy, finalizeIntervalMs, [`the facilitator did not start with this policy: ${describeFailure(error)}`]);
  }
  const providers: ProviderProcess[] = [];
  try {
    for (const price of PRIVACY_PRICES.slice(1)) providers.push(await startProviderProcess({ facilitatorUrl: facilitator.facilitator.url, price }));
    const urls = [facilitator.provider.url, ...providers.map((provider) => provider.url)].map((url) => `${url}/weather`);
    await facilitator.waitForFullStock();

    const client = createPublicClient({ transport: http(stack.deployment.rpcUrl) });
    const fromBlock = (await client.getBlockNumber()) + 1n;
    const schedule = arrivalSchedule({ count: PRIVACY_PAYMENTS, meanGapMs: PRIVACY_MEAN_GAP_MS, prices: PRIVACY_PRICES.length, seed: ARRIVAL_SEED });
    // Each account pays strictly one at a time (its permit nonce), so payments chain per account.
    const perAccount = accounts.map(() => Promise.resolve());
    const started = performance.now();
    for (const [index, arrival] of schedule.entries()) {
      const wait = arrival.atMs - (performance.now() - started);
      if (wait > 0) await sleep(wait);
      const slot = index % accounts.length;
      const account = accounts[slot];
      const url = urls[arrival.priceIndex];
      if (account === undefined || url === undefined) continue;
      perAccount[slot] = (perAccount[slot] ?? Promise.resolve()).then(async () => {
        const paid = await payer
          .pay("permit", account.privateKey, url)
          .catch((error: unknown) => ({ status: 0, error: String(error), errorReason: undefined }));
        if (paid.status !== 200) failures.push(`payment: HTTP ${paid.status} ${paid.errorReason ?? paid.error ?? ""}`.trim());
      });
    }
    await Promise.all(perAccount);
    progress(`privacy (${name}): ${PRIVACY_PAYMENTS} payments made; waiting for their mints`);

    const deadline = Date.now() + ((policy?.maxDelaySeconds ?? 0) + 60) * 1000;
    const lines = () => facilitator.facilitator.lines;
    const pending = () => {
      const finalized = eventTimes(lines(), "payment_finalized");
      return [...eventTimes(lines(), "payment_accepted").keys()].filter((nonce) => !finalized.has(nonce)).length;
    };
    while (pending() > 0 && Date.now() < deadline) await sleep(100);
    const lastMintAt = performance.now();
    const accepted = eventTimes(lines(), "payment_accepted");
    const finalized = eventTimes(lines(), "payment_finalized");
    if (pending() > 0) failures.push(`${pending()} accepted payments not finalized in time`);
    // A failed pass backs off (up to ten intervals) and would show as waiting time; name it rather than hide it.
    const passFailures = parseLogEvents(lines()).filter((entry) => entry.event === "finalize_pass_failed");
    if (passFailures.length > 0) {
      const reasons = [...new Set(passFailures.map((entry) => String(entry.fields.error)))].join(", ");
      failures.push(`${passFailures.length} finalize passes failed (${reasons}) and backed off`);
    }
    const latency = [...accepted].flatMap(([nonce, at]) => {
      const done = finalized.get(nonce);
      return done === undefined ? [] : [done - at];
    });
    const acceptedToFinalizedMs = summarize(latency);

    const observed = await readObservedChain({
      rpcUrl: stack.deployment.rpcUrl,
      protocol: stack.deployment.protocol,
      token: stack.deployment.token,
      permitBurner: stack.deployment.permitBurner,
      verifier: stack.deployment.verifier,
      fromBlock,
      toBlock: await client.getBlockNumber(),
      leavesFromBlock: BigInt(stack.deployment.deployBlockNumber),
    });
    const sets = anonymitySets(observed.events);
    const statedPolicy: ObserverPolicy = {
      minDelaySeconds: policy?.minDelaySeconds ?? 0,
      maxDelaySeconds: policy?.maxDelaySeconds ?? 0,
      minAnonymitySet: policy?.minAnonymitySet ?? 1,
      slackSeconds: OBSERVER_SLACK_SECONDS,
    };
    const observerPolicy = { ...statedPolicy, slackSeconds: consistentSlack(observed.events, statedPolicy) };
    const { accounts: dev } = stack.deployment;
    const score = scoreRun({
      observed,
      policy: observerPolicy,
      truth: await readGroundTruth(facilitator.facilitator.url, facilitator.adminToken),
      proofRequests: recorder.requests,
      knownSenders: [dev.treasury.address, dev.relayer.address, dev.deployer.address, privateKeyToAccount(MINTER_KEY).address],
    });
    const unmintedMedianByPrice = Object.fromEntries(
      PRIVACY_PRICES.map((price) => {
        const amount = (BigInt(price) * 101n) / 100n;
        return [price, summarize(sets.filter((mint) => mint.value === amount).map((mint) => mint.unmintedBurns)).median];
      }),
    );
    return {
      policy,
      finalizeIntervalMs,
      payments: schedule.length,
      accepted: accepted.size,
      mints: sets.length,
      unmintedBurns: summarize(sets.map((mint) => mint.unmintedBurns)),
      possibleSources: summarize(sets.map((mint) => mint.possibleSources)),
      unmintedMedianByPrice,
      acceptedToFinalizedMs,
      mintsBySameSender: observed.mintsBySameSender,
      observer: score.figures,
      decoys: score.decoys,
      observerSlackSeconds: observerPolicy.slackSeconds,
      wallSeconds: (lastMintAt - started) / 1000,
      failures,
    };
  } finally {
    for (const provider of providers) await provider.stop().catch(() => undefined);
    await facilitator.stop();
    await recorder.close();
  }
}

/**
 * Runs section 7: an indexer on `indexerPort` (the stack indexer's URL, closed by the caller beforehand) with
 * its root job, then the local default and the compressed recommended policy one after the other.
 */
export async function measurePrivacy(context: PrivacyContext, indexerPort: number): Promise<PrivacyResult> {
  const { stack, progress } = context;
  const sectionStarted = performance.now();
  const indexer = await startIndexer({
    rpcUrl: stack.deployment.rpcUrl,
    chainId: stack.deployment.chainId,
    token: stack.deployment.token,
    verifier: stack.deployment.verifier,
    rootProverKey: stack.deployment.accounts.rootProver.privateKey,
    fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
    port: indexerPort,
    rootIntervalMs: ROOT_INTERVAL_MS,
  });
  try {
    progress(`privacy: ${PRIVACY_PAYMENTS} payments at ${PRIVACY_PRICES.length} prices under the local default policy`);
    const local = await runPhase(context, "privacy-local", undefined, LOCAL_FINALIZE_INTERVAL_MS);
    const policy = compressed(RECOMMENDED_POLICY);
    progress(`privacy: the same arrivals under the recommended policy, ${TIME_COMPRESSION}x compressed`);
    const recommended = await runPhase(context, "privacy-policy", policy, POLICY_FINALIZE_INTERVAL_MS);
    return {
      compression: TIME_COMPRESSION,
      meanGapMs: PRIVACY_MEAN_GAP_MS,
      prices: PRIVACY_PRICES,
      recommended: RECOMMENDED_POLICY,
      slackSeconds: OBSERVER_SLACK_SECONDS,
      local,
      policy: recommended,
      durationSeconds: (performance.now() - sectionStarted) / 1000,
    };
  } finally {
    await indexer.close();
  }
}
