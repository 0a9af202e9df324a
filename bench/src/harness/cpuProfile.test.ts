import { describe, expect, it } from "vitest";
import { packageOf, summarizeProfiles, type CpuProfile } from "./cpuProfile.js";

describe("packageOf", () => {
  it("names the package, the workspace or the Node part a script belongs to", () => {
    expect(packageOf("file:///repo/node_modules/@noble/curves/esm/abstract/modular.js", "mod")).toBe("@noble/curves");
    expect(packageOf("file:///repo/node_modules/viem/_esm/utils/x.js", "f")).toBe("viem");
    expect(packageOf("file:///repo/facilitator/dist/http/createApp.js", "f")).toBe("facilitator (own code)");
    expect(packageOf("file:///repo/scheme/dist/zerc20/burnAddress.js", "f")).toBe("@svc/scheme");
    expect(packageOf("node:internal/streams/writable", "f")).toBe("node (built-in modules)");
    expect(packageOf("", "(garbage collector)")).toBe("(garbage collector)");
  });
});

describe("summarizeProfiles", () => {
  it("adds self time per package and function over profiles, leaving out idle and native program time", () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 } },
        { id: 2, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
        { id: 3, callFrame: { functionName: "(program)", url: "", lineNumber: -1 } },
        { id: 4, callFrame: { functionName: "mod", url: "file:///r/node_modules/@noble/curves/modular.js", lineNumber: 14 } },
        { id: 5, callFrame: { functionName: "(garbage collector)", url: "", lineNumber: -1 } },
      ],
      samples: [2, 3, 4, 4, 5],
      timeDeltas: [5000, 5000, 1000, 1000, 2000],
    };
    const summary = summarizeProfiles([profile, profile]);
    expect(summary.totalMs).toBeCloseTo(8);
    expect(summary.byPackage.map((entry) => [entry.name, entry.ms])).toEqual([
      ["@noble/curves", 4],
      ["(garbage collector)", 4],
    ]);
    expect(summary.topFunctions[0]).toMatchObject({ name: "mod (@noble/curves: modular.js:15)", ms: 4, share: 0.5 });
  });
});
