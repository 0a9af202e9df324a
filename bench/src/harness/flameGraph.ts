/**
 * What `node --cpu-prof` wrote, cut to the windows a measurement chose: the samples of a `.cpuprofile` whose
 * time falls in the windows, merged by call stack into a tree, rendered as a self-contained SVG flame graph
 * (root at the bottom, hover shows a frame's time), and ranked as the top self-time frames. V8 stamps
 * samples in microseconds of the monotonic clock `process.hrtime` reads, so a window taken in the bench's
 * own process (`monotonicMicros`) selects the samples of the profiled process at that time.
 */
import { packageOf } from "./cpuProfile.js";

/** A `.cpuprofile` as `node --cpu-prof` writes it (the fields read here). */
export type FullCpuProfile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  /** Monotonic microseconds of the first sample's base. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** A span of monotonic time, µs. */
export type ProfileWindow = { fromUs: number; toUs: number };

/** One frame of the merged tree: its name, its total (inclusive) and self time, and its callees. */
export type FlameNode = { name: string; pkg: string; totalMs: number; selfMs: number; children: Map<string, FlameNode> };

/** Self time of one frame or package over the windows; a frame also names its heaviest callers (nearest first). */
export type SelfTime = { name: string; ms: number; share: number; callers?: string };

/** The windowed profile: tree, totals and rankings. */
export type WindowedProfile = {
  root: FlameNode;
  /** Sampled work in the windows, ms (idle and native program time excluded, GC included). */
  totalMs: number;
  topFrames: SelfTime[];
  byPackage: SelfTime[];
};

/** Callers named per top frame. */
const CALLER_DEPTH = 3;

// Nothing to attribute: waiting in the event loop, native time outside JavaScript, the tree's root.
const NOT_WORK = new Set(["(idle)", "(program)", "(root)"]);

/** The monotonic clock V8 stamps profile samples with, µs. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** Reads `value` as a `.cpuprofile`, or throws naming what is missing. */
export function parseCpuProfile(value: unknown): FullCpuProfile {
  if (typeof value !== "object" || value === null) throw new TypeError("a .cpuprofile is a JSON object");
  for (const field of ["nodes", "samples", "timeDeltas"] as const) {
    if (!(field in value) || !Array.isArray((value as Record<string, unknown>)[field])) throw new TypeError(`a .cpuprofile has ${field}`);
  }
  if (!("startTime" in value) || typeof value.startTime !== "number") throw new TypeError("a .cpuprofile has startTime");
  return value as FullCpuProfile;
}

function frameName(callFrame: FullCpuProfile["nodes"][number]["callFrame"]): string {
  const { functionName, url, lineNumber } = callFrame;
  if (url === "") return functionName || "(anonymous native)";
  return `${functionName || "(anonymous)"} ${url.slice(url.lastIndexOf("/") + 1)}:${lineNumber + 1}`;
}

/** Cuts `profile` to `windows` and merges the samples in them by call stack. */
export function windowProfile(profile: FullCpuProfile, windows: readonly ProfileWindow[], top = 15): WindowedProfile {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const root: FlameNode = { name: "all", pkg: "", totalMs: 0, selfMs: 0, children: new Map() };
  const frames = new Map<string, number>();
  const callers = new Map<string, Map<string, number>>();
  const packages = new Map<string, number>();
  let at = profile.startTime;
  let totalMs = 0;
  profile.samples.forEach((nodeId, index) => {
    const deltaUs = profile.timeDeltas[index] ?? 0;
    at += deltaUs;
    const leaf = nodes.get(nodeId);
    if (leaf === undefined || NOT_WORK.has(leaf.callFrame.functionName)) return;
    if (!windows.some((window) => at >= window.fromUs && at <= window.toUs)) return;
    const ms = deltaUs / 1000;
    const stack: FullCpuProfile["nodes"] = [];
    for (let id: number | undefined = nodeId; id !== undefined; id = parentOf.get(id)) {
      const node = nodes.get(id);
      if (node !== undefined && node.callFrame.functionName !== "(root)") stack.unshift(node);
    }
    let cursor = root;
    root.totalMs += ms;
    for (const node of stack) {
      const name = frameName(node.callFrame);
      let child = cursor.children.get(name);
      if (child === undefined) {
        child = { name, pkg: packageOf(node.callFrame.url, node.callFrame.functionName), totalMs: 0, selfMs: 0, children: new Map() };
        cursor.children.set(name, child);
      }
      child.totalMs += ms;
      cursor = child;
    }
    cursor.selfMs += ms;
    totalMs += ms;
    const frame = `${cursor.name} (${cursor.pkg})`;
    frames.set(frame, (frames.get(frame) ?? 0) + ms);
    // The nearest callers in our own code or a package, which say why the frame ran (natives name nothing).
    const chain = stack
      .slice(0, -1)
      .filter((node) => node.callFrame.url !== "" && !node.callFrame.url.startsWith("node:"))
      .slice(-CALLER_DEPTH)
      .reverse()
      .map((node) => frameName(node.callFrame))
      .join(" ← ");
    const byChain = callers.get(frame) ?? new Map<string, number>();
    byChain.set(chain, (byChain.get(chain) ?? 0) + ms);
    callers.set(frame, byChain);
    packages.set(cursor.pkg, (packages.get(cursor.pkg) ?? 0) + ms);
  });
  const ranked = (entries: Map<string, number>, withCallers: boolean): SelfTime[] =>
    [...entries.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => {
        const heaviest = withCallers ? [...(callers.get(name) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1])[0]?.[0] : undefined;
        return { name, ms, share: totalMs === 0 ? 0 : ms / totalMs, ...(heaviest ? { callers: heaviest } : {}) };
      });
  return { root, totalMs, topFrames: ranked(frames, true), byPackage: ranked(packages, false) };
}

const WIDTH = 1200;
const ROW = 17;

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// One stable warm colour per package, so a package's frames read as one band across the graph.
function colourOf(pkg: string): string {
  let hash = 0;
  for (const char of pkg) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return `hsl(${hash % 60},${70 + (hash % 25)}%,${55 + (hash % 15)}%)`;
}

function depthOf(node: FlameNode): number {
  let deepest = 0;
  for (const child of node.children.values()) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

/** The flame graph of `profile` as a standalone SVG document; frames under `minPx` wide are left out. */
export function renderFlameGraphSvg(profile: WindowedProfile, title: string, minPx = 1): string {
  const { root } = profile;
  const depth = depthOf(root);
  const height = (depth + 2) * ROW;
  const scale = root.totalMs === 0 ? 0 : WIDTH / root.totalMs;
  const rects: string[] = [];
  const draw = (node: FlameNode, x: number, level: number) => {
    const width = node.totalMs * scale;
    if (width < minPx) return;
    const y = height - (level + 1) * ROW;
    const label = `${node.name} (${node.pkg || "total"}): ${node.totalMs.toFixed(2)} ms, ${((node.totalMs / Math.max(root.totalMs, 1e-9)) * 100).toFixed(1)}%, self ${node.selfMs.toFixed(2)} ms`;
    const text =
      width > 30 ? `<text x="${(x + 3).toFixed(1)}" y="${(y + 12).toFixed(1)}">${escapeXml(node.name.slice(0, Math.floor(width / 6.5)))}</text>` : "";
    rects.push(
      `<g><title>${escapeXml(label)}</title><rect x="${x.toFixed(2)}" y="${y}" width="${width.toFixed(2)}" height="${ROW - 1}" fill="${colourOf(node.pkg)}"/>${text}</g>`,
    );
    let childX = x;
    for (const child of [...node.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      draw(child, childX, level + 1);
      childX += child.totalMs * scale;
    }
  };
  draw(root, 0, 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="monospace" font-size="11">`,
    `<title>${escapeXml(title)}</title>`,
    `<text x="4" y="13" font-size="13">${escapeXml(title)}: ${profile.totalMs.toFixed(1)} ms sampled (hover a frame for its time)</text>`,
    ...rects,
    "</svg>",
    "",
  ].join("\n");
}
