import { describe, expect, it } from "vitest";
import { createRecentAnswers } from "./recentAnswers.js";

describe("createRecentAnswers", () => {
  it("evicts the least recently used answer past its capacity, a read counting as a use", () => {
    const answers = createRecentAnswers<number>(2);
    answers.remember("a", 1);
    answers.remember("b", 2);
    expect(answers.get("a")).toBe(1);
    answers.remember("c", 3);
    expect(answers.get("b")).toBeUndefined();
    expect(answers.get("a")).toBe(1);
    expect(answers.get("c")).toBe(3);
  });

  it("answers nothing for a key never remembered", () => {
    expect(createRecentAnswers<string>(4).get("missing")).toBeUndefined();
  });
});
