/**
 * The observer who knows the finalize policy (issue 30, item 4): a compressed policy (2-12 s, k = 3) with a
 * separate minter key, a few dozen payments at one price and a few at a rare one, then the run read back from
 * the chain's logs alone and scored against the admin API's ground truth. Definitions of every figure:
 * anvil-fixtures/src/observer/scoreMints.ts and decoysAfterFiltering.ts. The facilitator takes its paths from the
 * indexer (`witnesses = "indexer"`), the one setting where the indexer's operator is an observer too, so the decoys
 * are scored; under the default `"self"` the indexer hears no `/proofs` at all (finalize/selfWitnesses.test.ts).
 */
import { startFacilitatorProcess, startProviderProcess, waitFor, type FacilitatorProcess, type ProviderProcess } from "@svc/anvil-fixtures";
import {
  consistentSlack,
  MIN_DECOYS_LEFT,
  readGroundTruth,
  readObservedChain,
  recordProofRequests,
  scoreRun,
  type ProofRequestRecorder,
  type RunScore,
} from "@svc/anvil-fixtures/observer";
import { keccak256, parseEther, toHex, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSettlements } from "./harness/admin.js";
import { chainClient } from "./harness/chain.js";
import { writeFacilitatorConfig } from "./harness/facilitatorConfig.js";
import { fetchOffer, payWith, permitPayload } from "./harness/payerSignatures.js";
import { startStackProcess, type StackProcess } from "./harness/startStackProcess.js";

/**
 * The recommended policy's shape, compressed: seconds instead of minutes. The observer allows at least 4 s past
 * the maximum for the loop, the proof and inclusion, more if a loaded machine made some mint need it.
 */
const POLICY = { minDelaySeconds: 2, maxDelaySeconds: 12, minAnonymitySet: 3, slackSeconds: 4 };
/** Payments at the common price, and at the rare one (spread among them). */
const COMMON_PAYMENTS = 24;
const RARE_PAYMENTS = 4;
/** Gap between arrivals: the common price gets about k payments per min_delay, the rare one far fewer. */
const ARRIVAL_GAP_MS = 450;
const MINTER_KEY = keccak256(toHex("svc-zerc20/e2e-observer-minter"));

/**
 * The most FIFO hits over `trials` mints that are still consistent with a hit rate of `rate`: the binomial mean
 * plus 2.33 standard deviations (one-sided, 1%). A few dozen mints cannot tell 1.5x chance from 1.2x, so a
 * bare comparison of the two rates would fail at random; a FIFO that follows the schedule (rates near 1) still
 * fails this bound by far. The bench reports the rate itself beside the target.
 */
function mostHitsAt(rate: number, trials: number): number {
  const bounded = Math.min(1, rate);
  return trials * bounded + 2.33 * Math.sqrt(trials * bounded * (1 - bounded));
}

let stack: StackProcess;
let recorder: ProofRequestRecorder;
let facilitator: FacilitatorProcess;
const providers: ProviderProcess[] = [];
let score: RunScore;

beforeAll(async () => {
  stack = await startStackProcess();
  recorder = await recordProofRequests(stack.deployment.indexerUrl);
  const minter = privateKeyToAddress(MINTER_KEY);
  await chainClient(stack).request({ method: "anvil_setBalance" as never, params: [minter, toHex(parseEther("10"))] as never });
  const configPath = await writeFacilitatorConfig(stack, "observer", {
    network: { indexer_url: recorder.url },
    finalize: {
      min_delay_seconds: POLICY.minDelaySeconds,
      max_delay_seconds: POLICY.maxDelaySeconds,
      min_anonymity_set: POLICY.minAnonymitySet,
      witnesses: "indexer",
    },
    daemon: { finalize_interval_ms: 1000, burn_address_pool_size: 6 },
  });
  facilitator = await startFacilitatorProcess({ configPath, env: { ...stack.facilitatorEnv, SVC_MINTER_PK: MINTER_KEY } });
  for (const price of ["2000", "3000"]) providers.push(await startProviderProcess({ facilitatorUrl: facilitator.url, price }));
  const [common, rare] = providers.map((provider) => `${provider.url}/weather`);
  const fromBlock = (await chainClient(stack).getBlockNumber()) + 1n;

  const total = COMMON_PAYMENTS + RARE_PAYMENTS;
  const rareEvery = Math.floor(total / RARE_PAYMENTS);
  const payers: Hex[] = [stack.deployment.accounts.payer.privateKey, stack.deployment.accounts.payer2.privateKey];
  const chains = payers.map(() => Promise.resolve());
  const statuses: number[] = [];
  const started = Date.now();
  for (let index = 0; index < total; index++) {
    const wait = started + index * ARRIVAL_GAP_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const url = index % rareEvery === rareEvery - 1 ? rare : common;
    const payer = payers[index % payers.length] as Hex;
    // A payer signs one permit at a time (its nonce), so each payer's payments chain.
    chains[index % payers.length] = (chains[index % payers.length] ?? Promise.resolve()).then(async () => {
      const offer = await fetchOffer(url as string);
      statuses.push((await payWith(url as string, offer, await permitPayload(stack, offer, payer))).status);
    });
  }
  await Promise.all(chains);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  const adminToken = stack.facilitatorEnv.SVC_ADMIN_TOKEN ?? "";
  await waitFor(async () => (await adminSettlements(facilitator.url, adminToken, "finalized")).length >= total, {
    timeoutMs: (POLICY.maxDelaySeconds + 30) * 1000,
    what: "every payment minted",
  });

  const { deployment } = stack;
  const observed = await readObservedChain({
    rpcUrl: deployment.rpcUrl,
    protocol: deployment.protocol,
    token: deployment.token,
    permitBurner: deployment.permitBurner,
    verifier: deployment.verifier,
    fromBlock,
    toBlock: await chainClient(stack).getBlockNumber(),
    leavesFromBlock: BigInt(deployment.deployBlockNumber),
  });
  const { accounts } = deployment;
  const policy = { ...POLICY, slackSeconds: consistentSlack(observed.events, POLICY) };
  score = scoreRun({
    observed,
    policy,
    truth: await readGroundTruth(facilitator.url, adminToken),
    proofRequests: recorder.requests,
    knownSenders: [accounts.treasury.address, accounts.relayer.address, minter, accounts.deployer.address],
  });
  const { figures, decoys } = score;
  console.info(
    `observer (policy ${POLICY.minDelaySeconds}-${POLICY.maxDelaySeconds} s, k ${POLICY.minAnonymitySet}, slack ${policy.slackSeconds} s): ${figures.mints} mints, ` +
      `${figures.earlyMints} early (smallest policy-aware set ${figures.minEarlySet}, ${figures.earlyBelowK} below k), median set ${figures.medianSet} ` +
      `(in hindsight ${figures.medianSetInHindsight}), ${figures.outsideWindow} outside the window; FIFO ${figures.fifoRate.toFixed(2)}, ` +
      `nearest burn ${figures.nearestRate.toFixed(2)}, chance ${figures.chance.toFixed(2)}; /proofs: ${decoys?.requests} with a minted leaf, ` +
      `${decoys?.withoutDecoys} without decoys, fewest decoys left ${decoys?.minLeft}, ${decoys?.belowThree} of ${decoys?.withCandidates} with candidates below ${MIN_DECOYS_LEFT}, ${decoys?.short} short of candidates`,
  );
}, 180_000);

afterAll(async () => {
  for (const provider of providers) await provider.stop().catch(() => undefined);
  await facilitator?.stop().catch(() => undefined);
  await recorder?.close();
  await stack?.close();
});

describe("an observer who knows the policy, scored against the ground truth", () => {
  it("faces at least k possible burns for every mint released before max_delay", () => {
    expect(score.figures.scored).toBe(COMMON_PAYMENTS + RARE_PAYMENTS);
    expect(score.figures.earlyMints).toBeGreaterThan(0);
    expect(score.figures.earlyBelowK).toBe(0);
  });

  it("links by FIFO at most 1.5 times as often as chance, and the nearest-burn rate is measured", () => {
    const { scored, fifoRate, chance } = score.figures;
    expect(fifoRate * scored).toBeLessThanOrEqual(mostHitsAt(1.5 * chance, scored));
    expect(score.figures.nearestRate).toBeGreaterThanOrEqual(0);
    expect(score.figures.nearestRate).toBeLessThanOrEqual(1);
  });

  it("leaves the indexer operator at least 3 decoys after filtering by value and source in every /proofs request that has candidates", () => {
    // Most requests come after enough same-price burns for 3 decoys; only the first few of each price can be short.
    expect(score.decoys?.withCandidates).toBeGreaterThan((score.decoys?.requests ?? 0) / 2);
    expect(score.decoys?.belowThree).toBe(0);
  });
});
