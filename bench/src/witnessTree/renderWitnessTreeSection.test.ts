import { describe, expect, it } from "vitest";
import { renderWitnessTreeSection } from "./renderWitnessTreeSection.js";

describe("renderWitnessTreeSection", () => {
  const figures = { leaves: 20_000, tracked: 100, cpuMicrosPerLeaf: 444, cpuMicrosPerLeafTracked: 2976, heapBytesPerPath: 460.8, gcExposed: true };

  it("projects the tree time per 100,000 leaves and prints each per-leaf and per-witness figure", () => {
    const text = renderWitnessTreeSection(figures).join("\n");
    expect(text).toContain("## 13. Our own Merkle witnesses: the followed transfer tree");
    expect(text).toContain("| initial sync, tree time per 100,000 leaves | **44.4 s** |");
    expect(text).toContain("| CPU per appended leaf, no path kept | 444 µs |");
    expect(text).toContain("| CPU per appended leaf, 100 paths kept | 2976 µs |");
    expect(text).toContain("| heap per tracked witness (one kept path of 40 siblings) | 0.45 KiB |");
  });

  it("says the heap figure is rough when no GC ran before the readings", () => {
    expect(renderWitnessTreeSection({ ...figures, gcExposed: false }).join("\n")).toContain("(no `--expose-gc`: a rough figure)");
  });
});
