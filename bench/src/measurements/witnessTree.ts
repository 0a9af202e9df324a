/**
 * The incremental transfer tree's own costs, with no chain in the way (what the tree follower adds on top of
 * reading the token's logs): CPU per appended leaf with no path kept and with paths kept, and the heap one
 * kept path costs. An initial sync of 100,000 leaves takes at least 100,000 times the per-leaf figure.
 */
import { createIncrementalTree } from "@svc/scheme";

/** What one run measured. */
export type WitnessTreeFigures = {
  leaves: number;
  tracked: number;
  /** CPU microseconds (user + system) per appended leaf, no path kept. */
  cpuMicrosPerLeaf: number;
  /** The same with `tracked` paths kept, spread over the first leaves. */
  cpuMicrosPerLeafTracked: number;
  /** Heap bytes per kept path (after a GC when `global.gc` is exposed). */
  heapBytesPerPath: number;
  /** Whether `global.gc` ran before each heap reading (`node --expose-gc`); without it the heap figure is rough. */
  gcExposed: boolean;
};

const leafOf = (index: number) => BigInt(index) * 0x9e3779b97f4a7c15n + 1n;

function cpuMicros(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

function heapAfterGc(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** Appends `leaves` leaves twice (keeping no path, then `tracked` paths) and measures a tree holding `tracked` paths. */
export function measureWitnessTree(params: { leaves: number; tracked: number }): WitnessTreeFigures {
  const { leaves, tracked } = params;
  const plain = createIncrementalTree();
  const plainMicros = cpuMicros(() => {
    for (let index = 0; index < leaves; index++) plain.append(leafOf(index));
  });
  const every = Math.max(1, Math.floor(leaves / tracked));
  const withPaths = createIncrementalTree();
  const trackedMicros = cpuMicros(() => {
    for (let index = 0; index < leaves; index++) withPaths.append(leafOf(index), { track: index % every === 0 && index / every < tracked });
  });
  const before = heapAfterGc();
  const holder = createIncrementalTree();
  for (let index = 0; index < tracked; index++) holder.append(leafOf(index), { track: true });
  const after = heapAfterGc();
  // Keeps the tree alive past the second reading.
  if (holder.trackedCount() !== tracked) throw new Error("the tree lost a kept path");
  return {
    leaves,
    tracked,
    cpuMicrosPerLeaf: plainMicros / leaves,
    cpuMicrosPerLeafTracked: trackedMicros / leaves,
    heapBytesPerPath: (after - before) / tracked,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === "function",
  };
}
