/**
 * CPU profiles of a facilitator's main thread over exactly one measured window (DevTools `Profiler` domain
 * through an {@link InspectorSession}), summarised as self time by package and by function: the "show where
 * the time goes" part of every missed target.
 */
import type { InspectorSession } from "./inspectorSession.js";

/** Self time of one function or package. */
export type ProfileEntry = { name: string; ms: number; share: number };

/** A summarised profile. */
export type ProfileSummary = {
  /** Sampled time in JavaScript, GC and named native functions, ms ("(idle)" and "(program)" excluded). */
  totalMs: number;
  byPackage: ProfileEntry[];
  topFunctions: ProfileEntry[];
};

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Starts sampling every `intervalUs` microseconds. */
export async function startCpuProfile(session: InspectorSession, intervalUs = 250): Promise<void> {
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: intervalUs });
  await session.send("Profiler.start");
}

function isProfile(value: unknown): value is Profile {
  return typeof value === "object" && value !== null && "nodes" in value && "samples" in value && "timeDeltas" in value;
}

/** Which package (or part of this repository, or of Node) a script URL belongs to. */
export function packageOf(url: string, functionName: string): string {
  if (url === "") return functionName === "" ? "(anonymous native)" : functionName;
  if (url.startsWith("node:")) return "node (built-in modules)";
  const marker = "/node_modules/";
  const at = url.lastIndexOf(marker);
  if (at !== -1) {
    const [first, second] = url.slice(at + marker.length).split("/");
    return first?.startsWith("@") ? `${first}/${second ?? ""}` : (first ?? url);
  }
  const workspace = /\/(facilitator|scheme|bench|provider-demo|agent|anvil-fixtures)\/dist\//.exec(url)?.[1];
  if (workspace === "facilitator") return "facilitator (own code)";
  if (workspace === "scheme") return "@svc/scheme";
  if (workspace === "bench") return "exact facilitator app (bench)";
  if (workspace !== undefined) return workspace;
  return url.slice(url.lastIndexOf("/") + 1);
}

const NOT_WORK = new Set(["(idle)", "(program)", "(root)"]);

/** A raw DevTools CPU profile (only the fields the summary reads). */
export type CpuProfile = Profile;

/** Stops sampling and returns the raw profile (empty when the inspector returned none). */
export async function stopCpuProfile(session: InspectorSession): Promise<CpuProfile> {
  const result = await session.send("Profiler.stop");
  const profile = typeof result === "object" && result !== null && "profile" in result ? result.profile : undefined;
  await session.send("Profiler.disable");
  return isProfile(profile) ? profile : { nodes: [], samples: [], timeDeltas: [] };
}

/** Profiles `session` around `work` only, and returns the work's result and the profile. */
export async function profiled<T>(session: InspectorSession, work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  await startCpuProfile(session);
  try {
    const result = await work();
    return { result, profile: await stopCpuProfile(session) };
  } catch (error) {
    await stopCpuProfile(session).catch(() => undefined);
    throw error;
  }
}

/** Summarises several profiles of the same process as one (top `top` entries of each list). */
export function summarizeProfiles(profiles: readonly CpuProfile[], top = 10): ProfileSummary {
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) total += accumulate(profile, byPackage, byFunction);
  const ranked = (entries: Map<string, number>): ProfileEntry[] =>
    [...entries.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => ({ name, ms, share: total === 0 ? 0 : ms / total }));
  return { totalMs: total, byPackage: ranked(byPackage), topFunctions: ranked(byFunction) };
}

/** Adds `profile`'s self time per package and per function to the maps; returns its non-idle total, ms. */
function accumulate(profile: Profile, byPackage: Map<string, number>, byFunction: Map<string, number>): number {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  let total = 0;
  profile.samples.forEach((nodeId, index) => {
    const node = nodes.get(nodeId);
    const deltaMs = (profile.timeDeltas[index] ?? 0) / 1000;
    // "(idle)" and "(program)" (native time outside JS, which in Node includes waiting in the event loop)
    // say nothing about where work goes; "(root)" is the tree's root.
    if (node === undefined || NOT_WORK.has(node.callFrame.functionName)) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const pkg = packageOf(url, functionName);
    const fn =
      url === "" ? functionName || "(anonymous native)" : `${functionName || "(anonymous)"} (${pkg}: ${url.slice(url.lastIndexOf("/") + 1)}:${lineNumber + 1})`;
    total += deltaMs;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + deltaMs);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + deltaMs);
  });
  return total;
}
