/**
 * Section 3, second half: many paid requests settling at once through one relayer key (our permit path,
 * and the official exact scheme with viem's nonce manager on its relayer). Each payer account signs one
 * payment against a real 402 first; then all paid requests go out together and the settle phase is timed:
 * completed per second, errors, and nonce collisions (relayer transactions sharing a nonce, or relays the
 * node refused over a nonce).
 *
 * Our offers come from `/challenge`, which is derivation-bound once the pre-derived addresses are gone,
 * so preparing our payments takes about a second each; the burst itself starts from a full stock so the
 * worker does not run beside it. End to end (offer included), our concurrent paid request rate is capped
 * by the sustained `/challenge` rate of section 3, which the report puts next to this figure.
 */
import { createPublicClient, http, isHex, type Hex } from "viem";
import type { BenchContext } from "../harness/benchContext.js";
import { paidRequestProbe } from "../harness/cpuProbe.js";
import { parseLogEvents } from "../harness/facilitatorLog.js";
import type { PreparedPayment } from "../harness/startPayer.js";
import { summarize, type Summary } from "../harness/stats.js";

/** One concurrent burst. */
export type ConcurrentRun = {
  /** Paid requests sent at once. */
  count: number;
  /** Answered 200 with a settlement. */
  completed: number;
  /** Everything else, described. */
  errors: string[];
  /** From the first request out to the last answer, ms. */
  wallMs: number;
  completedPerSec: number;
  latencyMs: Summary;
  /** Distinct relayer transactions among the settlements. */
  relayerTransactions: number;
  /** Relayer transactions sharing a nonce plus relays refused over a nonce. */
  nonceCollisions: number;
  /** Time to prepare all payments (offer + signature), ms. */
  prepareMs: number;
  /** CPU per paid request of each process during the burst, ms (our facilitator without its worker). */
  cpuPerRequestMs: Record<string, number>;
};

/**
 * Several pairs of bursts (ours, then exact, alternating): one burst is too noisy to judge on a small machine.
 * `permit` and `exact` are the bursts of the median pair (by the pair's throughput ratio); `ratio` summarises
 * every pair's ours-to-exact completed-per-second ratio (median and spread).
 */
export type ConcurrentSettlesResult = {
  permit: ConcurrentRun;
  exact: ConcurrentRun;
  bursts: { permit: ConcurrentRun[]; exact: ConcurrentRun[] };
  ratio: Summary;
};

/** Runs the concurrent-settle measurement. */
export async function measureConcurrentSettles(context: BenchContext): Promise<ConcurrentSettlesResult> {
  const { ours, exact, payer, accounts, config, stack, progress } = context;
  const count = Math.min(config.concurrent, accounts.length);
  const client = createPublicClient({ transport: http(stack.deployment.rpcUrl) });

  const prepareAll = async (scheme: "permit" | "exact", url: string): Promise<{ prepared: PreparedPayment[]; ms: number }> => {
    const started = performance.now();
    const prepared: PreparedPayment[] = [];
    for (let index = 0; index < count; index++) {
      const account = accounts[index];
      if (account === undefined) break;
      if (index % 10 === 0) progress(`concurrent ${scheme}: preparing ${index + 1}-${Math.min(count, index + 10)}/${count}`);
      prepared.push(await payer.prepare(scheme, account.privateKey, url));
    }
    return { prepared, ms: performance.now() - started };
  };

  const probe = paidRequestProbe(context);
  const burst = async (
    prepared: PreparedPayment[],
    prepareMs: number,
    relayRefusals: () => number,
    processes: Record<string, string>,
  ): Promise<ConcurrentRun> => {
    const refusalsBefore = relayRefusals();
    const cpuBefore = probe.read();
    const { wallMs, results } = await payer.sendPrepared(prepared);
    const spent = probe.delta(cpuBefore, probe.read());
    const errors = results
      .filter((result) => result.status !== 200)
      .map((result) => `HTTP ${result.status} ${result.errorReason ?? result.error ?? ""}`.trim());
    const hashes = [...new Set(results.map((result) => result.transaction).filter((hash): hash is Hex => hash !== undefined && isHex(hash)))];
    const transactions = await Promise.all(hashes.map((hash) => client.getTransaction({ hash })));
    const nonces = new Set(transactions.map((transaction) => `${transaction.from}:${transaction.nonce}`));
    const completed = results.length - errors.length;
    return {
      count: prepared.length,
      completed,
      errors,
      wallMs,
      completedPerSec: completed / (wallMs / 1000),
      latencyMs: summarize(results.filter((result) => result.status === 200).map((result) => result.ms)),
      relayerTransactions: transactions.length,
      nonceCollisions: transactions.length - nonces.size + (relayRefusals() - refusalsBefore),
      prepareMs,
      cpuPerRequestMs: Object.fromEntries(
        Object.entries(processes).map(([label, reader]) => [label, (spent[reader] ?? Number.NaN) / Math.max(1, prepared.length)]),
      ),
    };
  };

  const bursts: ConcurrentSettlesResult["bursts"] = { permit: [], exact: [] };
  for (let pair = 1; pair <= config.concurrentBursts; pair++) {
    const label = `burst ${pair}/${config.concurrentBursts}`;
    const oursPrepared = await prepareAll("permit", `${ours.provider.url}/weather`);
    progress(`concurrent permit, ${label}: waiting for a full burn-address stock, then ${count} settles at once`);
    await ours.waitForFullStock();
    bursts.permit.push(
      await burst(
        oursPrepared.prepared,
        oursPrepared.ms,
        () => parseLogEvents(ours.facilitator.lines).filter((event) => event.event === "permit_relay_failed").length,
        { facilitator: "oursFacilitator", provider: "oursProvider", payer: "payer", anvil: "anvil" },
      ),
    );

    const exactPrepared = await prepareAll("exact", `${exact.provider.url}/weather`);
    progress(`concurrent exact, ${label}: ${count} settles at once`);
    bursts.exact.push(
      await burst(
        exactPrepared.prepared,
        exactPrepared.ms,
        () =>
          parseLogEvents(exact.facilitator.lines).filter(
            (event) => event.event === "settle" && event.fields.success !== true && /nonce/i.test(String(event.fields.error ?? event.fields.errorReason ?? "")),
          ).length,
        { facilitator: "exactFacilitator", provider: "exactProvider", payer: "payer", anvil: "anvil" },
      ),
    );
  }
  const ratios = bursts.permit.map((run, index) => run.completedPerSec / (bursts.exact[index]?.completedPerSec ?? Number.NaN));
  const medianPair = ratios.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value)[Math.floor((ratios.length - 1) / 2)]?.index ?? 0;
  const permit = bursts.permit[medianPair];
  const exactRun = bursts.exact[medianPair];
  if (permit === undefined || exactRun === undefined) throw new Error("no concurrent burst ran (BENCH_CONCURRENT_BURSTS must be at least 1)");
  return { permit, exact: exactRun, bursts, ratio: summarize(ratios) };
}
