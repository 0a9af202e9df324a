/**
 * Section 1 (and the per-process CPU of section 6): one sequential paid request end to end, payer → provider →
 * facilitator → anvil → response, for our permit mode, our self-transfer mode and the official exact scheme,
 * interleaved round by round so all three see the same machine state.
 *
 * Every one of our paid requests takes a pre-derived burn address, and the facilitator's worker thread
 * re-derives it right away (about a second of CPU on one of the two cores): that background work is part of
 * our scheme's cost, and it slows whatever runs next to it, the exact scheme's interleaved requests included.
 * So the exact scheme is also timed in a quiet block afterwards (our worker idle) as the reference. Rounds run in blocks
 * that never empty the stock of pre-derived addresses, so no request waits for a derivation.
 */
import type { BenchContext } from "../harness/benchContext.js";
import { paidRequestProbe } from "../harness/cpuProbe.js";
import { summarize, type Summary } from "../harness/stats.js";
import type { PaidResult, PayerScheme } from "../servers/payerProtocol.js";

/** Unrecorded paid requests per scheme first, so no timed request pays for a first connection or cold code. */
const WARM_UP_RUNS = 3;

/** The processes whose CPU one paid request is charged with. */
export type PaidRequestCpu = { facilitator: Summary; provider: Summary; payer: Summary; anvil: Summary };

/** What section 1 measured. */
export type PaidRequestLatencyResult = {
  /** End-to-end latency per scheme (interleaved), ms. */
  latencyMs: Record<PayerScheme, Summary>;
  /** The legs of the request per scheme, ms. */
  legsMs: Record<PayerScheme, { unpaid: Summary; create: Summary; paid: Summary }>;
  /** The exact scheme with our facilitator idle, ms. */
  exactQuietMs: Summary;
  /** CPU ms per paid request per process (our facilitator without its burn-address worker). */
  cpuMs: Record<PayerScheme, PaidRequestCpu>;
  /** CPU ms of our burn-address worker during our timed requests, per request (background re-derivation). */
  derivationDuringRunsMs: Summary;
  /** Failed paid requests, described. */
  failures: string[];
};

const SCHEMES: readonly PayerScheme[] = ["exact", "permit", "self-transfer"];

/** Runs section 1. */
export async function measurePaidRequestLatency(context: BenchContext): Promise<PaidRequestLatencyResult> {
  const { ours, exact, payer, payerKey, config, progress } = context;
  const urls: Record<PayerScheme, string> = {
    permit: `${ours.provider.url}/weather`,
    "self-transfer": `${ours.provider.url}/weather`,
    exact: `${exact.provider.url}/weather`,
  };
  const probe = paidRequestProbe(context);
  // Our paid requests per block: the stock must not run dry mid-block (a round takes two).
  const oursPerBlock = ours.poolSize - 2;
  const failures: string[] = [];
  const check = (scheme: PayerScheme, result: PaidResult): boolean => {
    if (result.status === 200) return true;
    failures.push(`${scheme}: HTTP ${result.status} ${result.errorReason ?? result.error ?? ""}`.trim());
    return false;
  };

  progress("paid requests: warm-up");
  await ours.waitForFullStock();
  for (const scheme of SCHEMES) for (let run = 0; run < WARM_UP_RUNS; run++) check(scheme, await payer.pay(scheme, payerKey, urls[scheme]));

  const latency: Record<PayerScheme, number[]> = { permit: [], "self-transfer": [], exact: [] };
  const legs: Record<PayerScheme, { unpaid: number[]; create: number[]; paid: number[] }> = {
    permit: { unpaid: [], create: [], paid: [] },
    "self-transfer": { unpaid: [], create: [], paid: [] },
    exact: { unpaid: [], create: [], paid: [] },
  };
  const cpu: Record<PayerScheme, Record<keyof PaidRequestCpu, number[]>> = {
    permit: { facilitator: [], provider: [], payer: [], anvil: [] },
    "self-transfer": { facilitator: [], provider: [], payer: [], anvil: [] },
    exact: { facilitator: [], provider: [], payer: [], anvil: [] },
  };
  const derivation: number[] = [];
  let oursInBlock = oursPerBlock;
  for (let round = 0; round < config.paidRuns; round++) {
    if (oursInBlock + 2 > oursPerBlock) {
      progress(`paid requests: round ${round + 1}/${config.paidRuns} (waiting for a full burn-address stock)`);
      await ours.waitForFullStock();
      oursInBlock = 0;
    }
    // Rotate the order so no scheme always runs first in a round (right after the pause).
    const order = SCHEMES.map((_, index) => SCHEMES[(index + round) % SCHEMES.length] ?? "exact");
    for (const scheme of order) {
      const before = probe.read();
      const result = await payer.pay(scheme, payerKey, urls[scheme]);
      const spent = probe.delta(before, probe.read());
      if (scheme !== "exact") oursInBlock++;
      if (!check(scheme, result)) continue;
      latency[scheme].push(result.ms);
      if (result.legs) {
        legs[scheme].unpaid.push(result.legs.unpaidMs);
        legs[scheme].create.push(result.legs.createMs);
        legs[scheme].paid.push(result.legs.paidMs);
      }
      const facilitator = scheme === "exact" ? spent.exactFacilitator : spent.oursFacilitator;
      const provider = scheme === "exact" ? spent.exactProvider : spent.oursProvider;
      cpu[scheme].facilitator.push(facilitator ?? Number.NaN);
      cpu[scheme].provider.push(provider ?? Number.NaN);
      cpu[scheme].payer.push(spent.payer ?? Number.NaN);
      cpu[scheme].anvil.push(spent.anvil ?? Number.NaN);
      if (scheme !== "exact") derivation.push(spent.oursDerivation ?? Number.NaN);
    }
  }

  // Last, so every program is as warm as in the interleaved rounds.
  progress("paid requests: exact scheme, our facilitator idle");
  await ours.waitForFullStock();
  const exactQuiet: number[] = [];
  for (let run = 0; run < config.exactQuietRuns; run++) {
    const result = await payer.pay("exact", payerKey, urls.exact);
    if (check("exact", result)) exactQuiet.push(result.ms);
  }

  const summarizeCpu = (samples: Record<keyof PaidRequestCpu, number[]>): PaidRequestCpu => ({
    facilitator: summarize(samples.facilitator),
    provider: summarize(samples.provider),
    payer: summarize(samples.payer),
    anvil: summarize(samples.anvil),
  });
  const summarizeLegs = (samples: { unpaid: number[]; create: number[]; paid: number[] }) => ({
    unpaid: summarize(samples.unpaid),
    create: summarize(samples.create),
    paid: summarize(samples.paid),
  });
  return {
    latencyMs: { permit: summarize(latency.permit), "self-transfer": summarize(latency["self-transfer"]), exact: summarize(latency.exact) },
    legsMs: { permit: summarizeLegs(legs.permit), "self-transfer": summarizeLegs(legs["self-transfer"]), exact: summarizeLegs(legs.exact) },
    exactQuietMs: summarize(exactQuiet),
    cpuMs: { permit: summarizeCpu(cpu.permit), "self-transfer": summarizeCpu(cpu["self-transfer"]), exact: summarizeCpu(cpu.exact) },
    derivationDuringRunsMs: summarize(derivation),
    failures,
  };
}
