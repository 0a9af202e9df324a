/**
 * Named CPU readings taken together before and after a piece of work, so each process's share of one paid
 * request (or one burst) can be attributed. Readers return cumulative CPU milliseconds.
 */
import type { BenchContext } from "./benchContext.js";
import { readProcessCpuMs } from "./procStats.js";

/** Cumulative CPU milliseconds per name. */
export type CpuReadings = Record<string, number>;

/** A set of named cumulative-CPU readers. */
export type CpuProbe = {
  read: () => CpuReadings;
  /** `after - before` per name. */
  delta: (before: CpuReadings, after: CpuReadings) => CpuReadings;
};

/** A probe over `readers`. */
export function createCpuProbe(readers: Record<string, () => number>): CpuProbe {
  return {
    read: () => Object.fromEntries(Object.entries(readers).map(([name, read]) => [name, read()])),
    delta: (before, after) => Object.fromEntries(Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)])),
  };
}

/**
 * The processes of one paid request, per scheme: our facilitator split into its request path (every thread
 * but the burn-address workers) and the workers, our provider, the exact facilitator and provider, the payer
 * and anvil.
 */
export function paidRequestProbe(context: BenchContext): CpuProbe {
  const { ours, exact, payer } = context;
  const worker = (): number => ours.workerCpuMs();
  return createCpuProbe({
    oursFacilitator: () => readProcessCpuMs(ours.facilitatorPid) - worker(),
    oursDerivation: worker,
    oursProvider: () => readProcessCpuMs(ours.provider.pid),
    exactFacilitator: () => readProcessCpuMs(exact.facilitator.pid),
    exactProvider: () => readProcessCpuMs(exact.provider.pid),
    payer: () => readProcessCpuMs(payer.pid),
    anvil: () => readProcessCpuMs(context.anvilPid),
  });
}
