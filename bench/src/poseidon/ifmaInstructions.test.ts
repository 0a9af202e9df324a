import { describe, expect, it } from "vitest";
import { ifmaInstructionsPerStep, ifmaPartialRound } from "./ifmaInstructions.js";

describe("ifmaInstructionsPerStep", () => {
  it("counts the instructions of one eight-lane step of each width", () => {
    expect(ifmaInstructionsPerStep(3)).toEqual({ firstRound: 695, openingRounds: 4320, partialRounds: 39830, closingRounds: 5350, leave: 55, total: 50250 });
    expect(ifmaInstructionsPerStep(4)).toEqual({ firstRound: 800, openingRounds: 6360, partialRounds: 48220, closingRounds: 7715, leave: 55, total: 63150 });
  });
});

describe("ifmaPartialRound", () => {
  it("splits an ordinary partial round into its reductions and the rest", () => {
    expect(ifmaPartialRound(4)).toEqual({ total: 845, reductions: 385 });
    expect(ifmaPartialRound(3)).toEqual({ total: 690, reductions: 330 });
  });
});
