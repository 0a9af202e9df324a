import { describe, expect, it } from "vitest";
import type { Hash } from "viem";
import type { TimedEvent } from "./readObservedChain.js";
import { consistentSlack, observerFigures, scoreMints, type GroundTruthPair } from "./scoreMints.js";

const POLICY = { minDelaySeconds: 2, maxDelaySeconds: 12, minAnonymitySet: 3, slackSeconds: 2 };

const hash = (label: string) => `0x${Buffer.from(label).toString("hex").padStart(64, "0")}` as Hash;

/** `"B1@0 M1@5"`: burn `b1` at second 0, mint `m1` at second 5, all of value 5 unless `:v` follows the label (`B1:7@0`). */
function run(text: string): TimedEvent[] {
  return text
    .split(/\s+/)
    .filter((token) => token !== "")
    .map((token, index) => {
      const [, kind, label, value, at] = /^([BM])(\w+?)(?::(\d+))?@(\d+)$/.exec(token) ?? [];
      return {
        kind: kind === "B" ? "burn" : "mint",
        value: BigInt(value ?? 5),
        blockNumber: BigInt(index + 1),
        logIndex: 0,
        at: Number(at),
        transactionHash: hash(`${kind}${label}`),
      } as TimedEvent;
    });
}

const pair = (burn: string, mint: string): GroundTruthPair => ({ burnTxHash: hash(`B${burn}`), mintTxHash: hash(`M${mint}`) });

describe("scoreMints", () => {
  it("gives a mint right after its burn a set of 0 under the policy: the only burn is too young", () => {
    const [score] = scoreMints(run("B1@0 M1@0"), POLICY, [pair("1", "1")]);
    expect(score).toMatchObject({ policyAwareSet: 0, early: true, trueBurnInWindow: false, fifoCorrect: true, nearestCorrect: true });
  });

  it("counts the mature burns of the value and leaves out younger ones and other values", () => {
    const events = run("B1@0 B2@1 B3:7@1 B4@2 B5@9 M2@10");
    const [score] = scoreMints(events, POLICY, [pair("2", "2")]);
    expect(score?.policyAwareSet).toBe(3);
    expect(score?.early).toBe(true);
  });

  it("drops burns that earlier mints certainly consumed, and in hindsight also those later mints need", () => {
    // M1 at 2 can only be B1 (B2 is too young): B1 is consumed when M2 lands. M3 at 16 can only be B3 (B2 is
    // 15 s old, past 12 + 2): in hindsight M2 must be B2.
    const events = run("B1@0 B2@1 M1@2 B3@4 M2@6 M3@16");
    const scores = scoreMints(events, POLICY, [pair("1", "1"), pair("2", "2"), pair("3", "3")]);
    expect(scores.map((score) => score.policyAwareSet)).toEqual([1, 2, 1]);
    expect(scores.map((score) => score.policyAwareSetInHindsight)).toEqual([1, 1, 1]);
  });

  it("scores FIFO and nearest-burn guesses against the truth, and chance from the sets", () => {
    const events = run("B1@0 B2@0 B3@0 M3@5 M1@5 M2@5");
    const scores = scoreMints(events, POLICY, [pair("3", "3"), pair("1", "1"), pair("2", "2")]);
    expect(scores.map((score) => [score.fifoCorrect, score.nearestCorrect])).toEqual([
      [false, true],
      [false, false],
      [false, false],
    ]);
    const figures = observerFigures(scores, POLICY);
    // No mint certainly consumes a burn the next one could have taken: every set is the whole batch.
    expect(figures).toMatchObject({ mints: 3, scored: 3, earlyMints: 3, earlyBelowK: 0, minEarlySet: 3, fifoRate: 0, outsideWindow: 0 });
    expect(figures.nearestRate).toBeCloseTo(1 / 3);
    expect(figures.chance).toBeCloseTo(1 / 3);
  });

  it("does not call a mint at the maximum early, and leaves mints without ground truth unscored", () => {
    const scores = scoreMints(run("B1@0 M1@12 B2@20 M2@30"), POLICY, [pair("1", "1")]);
    expect(scores.map((score) => score.early)).toEqual([false, undefined]);
    expect(observerFigures(scores, POLICY)).toMatchObject({ mints: 2, scored: 1, earlyMints: 0, earlyBelowK: 0 });
  });

  it("finds the smallest slack at which every mint has a burn of its own in its window", () => {
    const fast = { minDelaySeconds: 0, maxDelaySeconds: 0, minAnonymitySet: 1, slackSeconds: 1 };
    // M2 needs B2 (9 s) or B1 (10 s): 9 s of slack, not the 10 that would also admit B1.
    expect(consistentSlack(run("B1@0 M1@3 B2@5 M2@14"), fast)).toBe(9);
    expect(consistentSlack(run("B1@0 M1@1"), fast)).toBe(1);
    expect(consistentSlack(run("M1@1"), fast, 60)).toBe(60);
  });
});
