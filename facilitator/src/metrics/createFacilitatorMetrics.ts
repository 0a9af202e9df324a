/**
 * Every metric `GET /metrics` exposes, in one prom-client registry per daemon. Events (an offer, a settle, a
 * finalize failure) arrive through the small hooks of {@link FacilitatorMetrics}; values that exist as state
 * (stock, backlog, open challenges, queue depth, gas balances) are read at scrape time from
 * {@link MetricsSources}, so nothing has to be kept in step. Label values are reason codes and other closed
 * sets, never addresses, nonces or amounts. Each metric is documented in the package README.
 */
import type { TreeFollowerProgress } from "../witnesses/createTreeFollower.js";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import type { BurnAddressPoolStats } from "../challenges/burnAddressPool.js";
import type { FinalizePassReport } from "../finalize/createFinalizeLoop.js";
import type { FinalizeFailedReason } from "../finalize/finalizeReasons.js";
import type { PoseidonStatus, RpcEndpointStatus } from "../operator/adminStatus.js";
import { BACKLOG_STATES, type SettlementBacklog } from "../operator/settlementBacklog.js";
import { withTimeout } from "../readiness/withTimeout.js";
import type { ReorgOutcome } from "../finalize/watchReorgs.js";
import { BURN_VANISHED_REASON } from "../settlement/settlementBook.js";

/** Why `/challenge` gave no offer. */
export const OFFER_REFUSAL = {
  notReady: "not_ready",
  sharedRate: "shared_rate",
  issuanceRate: "issuance_rate",
  capacity: "capacity",
  stockUnavailable: "stock_unavailable",
  profileDisabled: "profile_disabled",
  invalidRequest: "invalid_request",
  unauthenticated: "unauthenticated",
  internalError: "internal_error",
} as const;

/** One of the values of {@link OFFER_REFUSAL}. */
export type OfferRefusal = (typeof OFFER_REFUSAL)[keyof typeof OFFER_REFUSAL];

/** The history operations counted. */
export type HistoryOperation = "login" | "proof_issue" | "proof_verify" | "proof_revoke";

/** State read at scrape time. */
export type MetricsSources = {
  /** The burn-address pool's counters; `undefined` when no pool runs (non-local profile). */
  poolStats: () => BurnAddressPoolStats | undefined;
  /** The Poseidon implementation and search path chosen at start (fixed for the process). */
  poseidon: PoseidonStatus;
  backlog: () => SettlementBacklog;
  openChallenges: () => number;
  /** Relayer transactions submitted and not yet answered. */
  relayerQueueDepth: () => number;
  /** The RPC endpoints' health; labelled by `rpc#<index>` only, never by URL. */
  rpcEndpoints: () => RpcEndpointStatus[];
  /** Native balances in wei; a rejection leaves the gauge empty for that scrape. */
  gasBalances: () => Promise<{ relayer: bigint; treasury: bigint; minter?: bigint | undefined }>;
};

/** The registry and the hooks the daemon calls. */
export type FacilitatorMetrics = {
  registry: Registry;
  offerIssued: () => void;
  offerRefused: (reason: OfferRefusal) => void;
  /** `outcome` is `valid` or the `invalidReason`. */
  verified: (outcome: string) => void;
  /** `outcome` is the success phase (`accepted`) or the `errorReason`; `seconds` is the wall time of the call. */
  settled: (outcome: string, success: boolean, seconds: number) => void;
  /** `reason` is the finalize failure code. */
  finalizeFailed: (reason: FinalizeFailedReason) => void;
  finalizePassFailed: (error: string) => void;
  /** One finalize pass completed (whatever it found to do), with the real leaves it sent short of decoys. */
  finalizePass: (pass?: FinalizePassReport) => void;
  /** Real leaves sent to the indexer with fewer than three qualifying decoys since start (for `/admin/status`). */
  decoysShortTotal: () => number;
  /** A payment minted only because `finalize.max_delay_seconds` passed, with fewer than k mature same-amount payments waiting. */
  releasedAlone: () => void;
  /** Payments minted released alone since start (the counter's value, for `/admin/status`). */
  releasedAloneTotal: () => number;
  /** A reorg removed an accepted burn or a finalized mint, and what the reorg watch did about it. */
  reorg: (subject: "burn" | "mint", outcome: ReorgOutcome) => void;
  /** A request refused by a rate limit: `scope` `shared` (money endpoints) or `challenge_issuance`, `caller` the provider's name or `anonymous`. */
  rateLimited: (scope: string, caller: string) => void;
  /** `outcome` is `ok` or the HTTP status of the refusal. */
  history: (operation: HistoryOperation, outcome: string) => void;
  /** A key's monitor re-broadcast a transaction (`stuck`, `dropped`, `gap`) or was stopped by the fee cap (`fee_cap`). */
  txReplaced: (event: { role: string; reason: string }) => void;
  /** Where the transfer-tree follower stands after its latest sync (`[finalize] witnesses = "self"`). */
  witnessProgress: (progress: TreeFollowerProgress) => void;
  /** The follower's latest reported progress; `undefined` under `witnesses = "indexer"` or before it opened. */
  witnessStatus: () => TreeFollowerProgress | undefined;
};

/** Buckets of the settle histogram: a self-transfer settle is one RPC round trip, a permit settle waits for a block. */
export const SETTLE_DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];

// Scrape-time gas reads wait at most this long, so a slow RPC cannot stall the whole scrape.
const BALANCE_TIMEOUT_MS = 2_000;

/**
 * Creates the registry with every metric registered.
 *
 * @example
 * const metrics = createFacilitatorMetrics(sources);
 * metrics.offerIssued();
 * const text = await metrics.registry.metrics();
 */
export function createFacilitatorMetrics(sources: MetricsSources): FacilitatorMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  // Registration order is the exposition order of `/metrics`: the metrics below keep theirs.
  /** A counter of events the daemon reports through one of the hooks below. */
  const counter = <Label extends string = never>(name: string, help: string, labelNames: readonly Label[] = []) =>
    new Counter<Label>({ name, help, labelNames, registers });
  /** A gauge of one value, read from the sources at scrape time. */
  const scrapedGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  /** A gauge of one series per value of `labelName`, each read from the sources at scrape time. */
  const scrapedGaugeSeries = (name: string, help: string, labelName: string, read: () => Iterable<readonly [string, number]>) =>
    new Gauge({
      name,
      help,
      labelNames: [labelName],
      registers,
      collect() {
        for (const [label, value] of read()) this.set({ [labelName]: label }, value);
      },
    });
  /** A counter of one series per value of `labelName` whose totals another component keeps: copied at scrape time. */
  const scrapedCounterSeries = (name: string, help: string, labelName: string, read: () => Iterable<readonly [string, number]>) =>
    new Counter({
      name,
      help,
      labelNames: [labelName],
      registers,
      collect() {
        this.reset();
        for (const [label, total] of read()) this.inc({ [labelName]: label }, total);
      },
    });

  const offersIssued = counter("facilitator_offers_issued_total", "Offers issued by POST /challenge.");
  const offersRefused = counter("facilitator_offers_refused_total", "POST /challenge requests answered without an offer, by reason.", ["reason"]);
  scrapedGauge("facilitator_burn_address_stock", "Pre-derived burn addresses ready to hand out.", () => sources.poolStats()?.stocked ?? 0);
  scrapedGauge("facilitator_burn_addresses_derived", "Burn addresses derived and verified since the daemon started.", () => sources.poolStats()?.derived ?? 0);
  scrapedGauge(
    "facilitator_burn_address_derivation_seconds",
    "Mean wall time of one burn-address derivation on a worker thread.",
    () => (sources.poolStats()?.meanDerivationMs ?? 0) / 1000,
  );
  scrapedGauge(
    "facilitator_burn_address_stock_target",
    "The burn-address stock size the workers refill to, sized from the observed offer and derivation rates.",
    () => sources.poolStats()?.target ?? 0,
  );
  scrapedGauge(
    "facilitator_burn_address_offer_rate",
    "Burn addresses taken from the stock per second (served or waiting), exponentially weighted over about a minute.",
    () => sources.poolStats()?.offersPerSecond ?? 0,
  );
  scrapedGauge(
    "facilitator_burn_address_derivation_rate",
    "Burn addresses the workers derive per second while all are busy (0 before the first derivation).",
    () => sources.poolStats()?.derivationsPerSecond ?? 0,
  );
  scrapedGauge(
    "facilitator_burn_address_stock_lasts_seconds",
    "Seconds the ready burn-address stock lasts at the current offer rate net of derivation (+Inf when it does not run out).",
    // Without a pool (a non-local profile) no offer draws on a stock: it lasts as long as one without demand.
    () => sources.poolStats()?.lastsSeconds ?? Number.POSITIVE_INFINITY,
  );
  // An info metric: the value is always 1, the facts are the labels (a path of `none` for poseidon-lite).
  new Gauge({
    name: "facilitator_poseidon_info",
    help: "The Poseidon implementation and native search path burn addresses derive with (value 1).",
    labelNames: ["implementation", "path"],
    registers,
  }).set({ implementation: sources.poseidon.implementation, path: sources.poseidon.path ?? "none" }, 1);
  const verifies = counter("facilitator_verify_total", "POST /verify answers, by outcome (valid or the invalidReason code).", ["outcome"]);
  const settles = counter("facilitator_settle_total", "POST /settle answers, by outcome (the success phase or the errorReason code).", ["outcome"]);
  const settleDuration = new Histogram({
    name: "facilitator_settle_duration_seconds",
    help: "Wall time of POST /settle in the settlement core, by result (success or failure).",
    labelNames: ["result"],
    buckets: SETTLE_DURATION_BUCKETS,
    registers,
  });
  scrapedGaugeSeries("facilitator_settlements", "Settlement entries by state (intent, accepted, finalized, failed, late_burn).", "state", () => {
    const backlog = sources.backlog();
    return BACKLOG_STATES.map((state) => [state, backlog[state].count] as const);
  });
  scrapedGaugeSeries("facilitator_settlement_oldest_age_seconds", "Age of the oldest entry in each state (0 when the state is empty).", "state", () => {
    const backlog = sources.backlog();
    return BACKLOG_STATES.map((state) => [state, backlog[state].oldestAgeSeconds ?? 0] as const);
  });
  scrapedGauge("facilitator_late_burns", "Burns included after their offer expired (refused; recovery is manual).", () => sources.backlog().late_burn.count);
  const finalizeFailures = counter("facilitator_finalize_failures_total", "Entries the finalize loop marked failed, by reason.", ["reason"]);
  const rateLimited = counter(
    "facilitator_rate_limited_total",
    "Requests refused by a rate limit (429), by limit and by caller: the configured provider's name, or anonymous (per client IP).",
    ["scope", "caller"],
  );
  const finalizePasses = counter("facilitator_finalize_passes_total", "Finalize passes completed (the loop is alive; a pass may find nothing to do).");
  const releasedAlone = counter(
    "facilitator_finalize_released_alone_total",
    "Payments minted at finalize.max_delay_seconds with fewer than finalize.min_anonymity_set mature same-amount payments waiting: an observer who knows the policy may link them to their burns.",
  );
  let releasedAloneTotal = 0;
  const decoysShort = counter(
    "facilitator_finalize_decoys_short_total",
    "Real leaves sent in a /proofs request with fewer than three decoys of their value that pass for payment burns (the chain had no more): the indexer can single them out more easily.",
  );
  let decoysShortTotal = 0;
  const reorgs = counter(
    "facilitator_reorgs_total",
    "Accepted burns (subject burn) and finalized mints (subject mint) a reorg removed, by what the reorg watch did: pending, moved, rebroadcast, vanished (the payment failed), reopened (minted again).",
    ["subject", "outcome"],
  );
  const finalizePassErrors = counter(
    "facilitator_finalize_pass_errors_total",
    "Finalize attempts that threw (RPC, indexer or prover trouble; retried with backoff), by error name.",
    ["error"],
  );
  scrapedGauge("facilitator_relayer_queue_depth", "Relayer transactions submitted to the serialised queue and not yet answered.", () =>
    sources.relayerQueueDepth(),
  );
  new Gauge({
    name: "facilitator_gas_balance_wei",
    help: "Native balance of the relayer, treasury and (when SVC_MINTER_PK is set) minter accounts, read from the RPC at scrape time.",
    labelNames: ["account"],
    registers,
    async collect() {
      this.reset();
      try {
        const balances = await withTimeout(sources.gasBalances(), BALANCE_TIMEOUT_MS);
        this.set({ account: "relayer" }, Number(balances.relayer));
        this.set({ account: "treasury" }, Number(balances.treasury));
        if (balances.minter !== undefined) this.set({ account: "minter" }, Number(balances.minter));
      } catch {
        // No series rather than a stale or zero one: an alert on a low balance must not fire on an RPC blip.
      }
    },
  });
  scrapedGaugeSeries(
    "facilitator_rpc_endpoint_up",
    "Whether each configured RPC endpoint (rpc#<index> in network.rpc_urls order) last answered (1) or is backed off after failing (0).",
    "endpoint",
    () => sources.rpcEndpoints().map((endpoint) => [endpoint.endpoint, endpoint.up ? 1 : 0] as const),
  );
  // Counters read from the tracker's totals at scrape time, like the gauges: the tracker is the one record.
  scrapedCounterSeries(
    "facilitator_rpc_endpoint_errors_total",
    "Requests that failed on each RPC endpoint (unreachable, timed out, rate limited, wrong chain) and moved to the next; a node's JSON-RPC error is an answer, not counted.",
    "endpoint",
    () => sources.rpcEndpoints().map((endpoint) => [endpoint.endpoint, endpoint.errors] as const),
  );
  scrapedCounterSeries(
    "facilitator_rpc_endpoint_skips_total",
    "Requests that passed each RPC endpoint by, without contacting it, while it was backed off after failing.",
    "endpoint",
    () => sources.rpcEndpoints().map((endpoint) => [endpoint.endpoint, endpoint.skips] as const),
  );
  scrapedGauge("facilitator_open_challenges", "Challenges issued and neither settled nor expired.", () => sources.openChallenges());
  const historyLogins = counter("facilitator_history_logins_total", "History wallet logins (POST /history/auth/verify), by outcome (ok or the HTTP status).", [
    "outcome",
  ]);
  const historyProofs = counter(
    "facilitator_history_proofs_total",
    "History proof operations, by operation (issue, verify, revoke) and outcome (ok or the HTTP status).",
    ["operation", "outcome"],
  );
  const txReplacements = counter(
    "facilitator_tx_replacements_total",
    "Transactions a key's monitor broadcast again, by key (relayer, minter, treasury) and reason: stuck (fee bump), dropped (re-sent), gap (nonce filled), fee_cap (a bump the cap stopped).",
    ["key", "reason"],
  );

  // The followed transfer tree (`witnesses = "self"`): absent from the exposition until the first sync reports.
  let witness: TreeFollowerProgress | undefined;
  const witnessGauge = (name: string, help: string, read: (progress: TreeFollowerProgress) => bigint | number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = witness === undefined ? undefined : read(witness);
        if (value !== undefined) this.set(Number(value));
      },
    });
  witnessGauge("facilitator_witness_leaves", "Leaves the transfer-tree follower has appended (the tree index of its root).", (progress) => progress.leaves);
  witnessGauge(
    "facilitator_witness_leaves_behind",
    "Leaves between the follower's tree and the verifier's latest proved index at the final block.",
    (progress) => (progress.provedIndex === undefined || progress.provedIndex < progress.leaves ? 0n : progress.provedIndex - progress.leaves),
  );
  witnessGauge("facilitator_witness_last_checked_index", "The last proved index whose root the follower matched.", (progress) => progress.lastChecked?.index);
  witnessGauge(
    "facilitator_witness_next_block",
    "The first block whose IndexedTransfer logs the follower has not all appended.",
    (progress) => progress.nextBlock,
  );
  witnessGauge(
    "facilitator_witness_tracked_paths",
    "Merkle paths the follower keeps (leaves sent to our burn addresses, not yet minted).",
    (progress) => progress.tracked,
  );

  return {
    registry,
    witnessProgress: (progress) => {
      witness = progress;
    },
    witnessStatus: () => witness,
    offerIssued: () => offersIssued.inc(),
    offerRefused: (reason) => offersRefused.inc({ reason }),
    verified: (outcome) => verifies.inc({ outcome }),
    settled: (outcome, success, seconds) => {
      settles.inc({ outcome });
      settleDuration.observe({ result: success ? "success" : "failure" }, seconds);
    },
    finalizeFailed: (reason) => finalizeFailures.inc({ reason }),
    finalizePassFailed: (error) => finalizePassErrors.inc({ error }),
    finalizePass: (pass) => {
      finalizePasses.inc();
      decoysShort.inc(pass?.decoysShort ?? 0);
      decoysShortTotal += pass?.decoysShort ?? 0;
    },
    decoysShortTotal: () => decoysShortTotal,
    releasedAlone: () => {
      releasedAlone.inc();
      releasedAloneTotal++;
    },
    releasedAloneTotal: () => releasedAloneTotal,
    reorg: (subject, outcome) => {
      reorgs.inc({ subject, outcome });
      // A burn gone for good fails its payment: counted with the other failures, under the same code.
      if (outcome === "vanished") finalizeFailures.inc({ reason: BURN_VANISHED_REASON });
    },
    rateLimited: (scope, caller) => rateLimited.inc({ scope, caller }),
    txReplaced: ({ role, reason }) => txReplacements.inc({ key: role, reason }),
    history: (operation, outcome) => {
      if (operation === "login") historyLogins.inc({ outcome });
      else historyProofs.inc({ operation: operation.slice("proof_".length), outcome });
    },
  };
}
