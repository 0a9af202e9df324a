import { describe, expect, it } from "vitest";
import { renderFlameGraphSvg, windowProfile, type FullCpuProfile } from "./flameGraph.js";

// root → handler (our code) → hash (a package); root → (idle). Samples 1 ms apart from t = 1000 µs.
const profile: FullCpuProfile = {
  startTime: 0,
  nodes: [
    { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [2, 4] },
    { id: 2, callFrame: { functionName: "handler", url: "file:///r/facilitator/dist/http/route.js", lineNumber: 9 }, children: [3] },
    { id: 3, callFrame: { functionName: "hash", url: "file:///r/node_modules/@noble/hashes/sha3.js", lineNumber: 48 } },
    { id: 4, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
  ],
  samples: [3, 3, 2, 4, 3, 3],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000],
};

describe("windowProfile", () => {
  it("keeps only the samples inside the windows, merged by stack, idle left out", () => {
    // Samples at 1, 2, 3, 4, 5, 6 ms; the windows take 1-3 ms and 6 ms.
    const windowed = windowProfile(profile, [
      { fromUs: 1000, toUs: 3000 },
      { fromUs: 5500, toUs: 6500 },
    ]);
    expect(windowed.totalMs).toBeCloseTo(4);
    const handler = windowed.root.children.get("handler route.js:10");
    expect(handler?.totalMs).toBeCloseTo(4);
    expect(handler?.selfMs).toBeCloseTo(1);
    expect(handler?.children.get("hash sha3.js:49")?.selfMs).toBeCloseTo(3);
    expect(windowed.topFrames[0]).toMatchObject({ name: "hash sha3.js:49 (@noble/hashes)", share: 0.75, callers: "handler route.js:10" });
    expect(windowed.byPackage.map((entry) => entry.name)).toEqual(["@noble/hashes", "facilitator (own code)"]);
  });

  it("renders every frame wide enough as a rectangle with its time in the hover title", () => {
    const svg = renderFlameGraphSvg(windowProfile(profile, [{ fromUs: 0, toUs: 10_000 }]), "test <path>");
    expect(svg).toContain("<title>test &lt;path&gt;</title>");
    expect(svg).toContain("<title>hash sha3.js:49 (@noble/hashes): 4.00 ms, 80.0%, self 4.00 ms</title>");
    expect(svg.match(/<rect /g)).toHaveLength(3);
  });
});
