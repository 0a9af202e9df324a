import { describe, expect, it } from "vitest";
import { instructionClass, parsePerfAnnotate, parsePerfReport } from "./perfOutput.js";

describe("parsePerfReport", () => {
  it("reads the share of each object and symbol, largest first", () => {
    const text = [
      "# Samples: 8K of event 'cpu-clock'",
      "#",
      "     0.41%  node                  [.] Builtins_GetProperty",
      "    80.22%  poseidon.node         [.] search_4",
      "     0.36%  [kernel.kallsyms]     [k] exc_page_fault",
      "",
    ].join("\n");
    expect(parsePerfReport(text)).toEqual([
      { object: "poseidon.node", symbol: "search_4", share: expect.closeTo(0.8022, 10) },
      { object: "node", symbol: "Builtins_GetProperty", share: expect.closeTo(0.0041, 10) },
      { object: "[kernel.kallsyms]", symbol: "exc_page_fault", share: expect.closeTo(0.0036, 10) },
    ]);
  });
});

describe("parsePerfAnnotate", () => {
  it("adds up the symbol's samples per instruction class", () => {
    const text = [
      " Percent |	Source code & Disassembly of poseidon.node for cpu-clock (6436 samples, percent: local period)",
      "         : 5     00000000000274a0 <search_4>:",
      "    0.00 :   274a0:  push   %rbp",
      "   50.00 :   274a4:  vpmadd52luq %zmm1,%zmm2,%zmm3",
      "   20.00 :   274aa:  vpmadd52huq %zmm1,%zmm2,%zmm3",
      "   10.00 :   274b0:  vpaddq %zmm1,%zmm2,%zmm3",
      "   10.00 :   274b6:  vmovdqu64 0x40(%rsp),%zmm4",
      "    5.00 :   274c0:  kmovb  %k1,%eax",
      "    5.00 :   274c4:  mov    %rsp,%rbp",
    ].join("\n");
    expect(parsePerfAnnotate(text)).toEqual([
      { name: "IFMA multiply (vpmadd52luq/huq)", share: 0.7 },
      { name: "vector add, shift, logic", share: 0.1 },
      { name: "vector loads, stores, moves, broadcasts", share: 0.1 },
      { name: "compares and masks", share: 0.05 },
      { name: "scalar and other", share: 0.05 },
    ]);
  });

  it("classes the search's mnemonics", () => {
    expect(["vpsrlq", "vpternlogq", "vpbroadcastq", "vpcmpeqq", "kortestb", "lea"].map(instructionClass)).toEqual([
      "vector add, shift, logic",
      "vector add, shift, logic",
      "vector loads, stores, moves, broadcasts",
      "compares and masks",
      "compares and masks",
      "scalar and other",
    ]);
  });
});
