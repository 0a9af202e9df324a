import { describe, expect, it } from "vitest";

import { BODY_EXCERPT_LIMIT, bodyExcerpt } from "./bodyExcerpt.js";

describe("bodyExcerpt", () => {
  it("keeps a short explanation as it is, on one line", () => {
    expect(bodyExcerpt('{"error":"facilitator unreachable",\n  "retry": true}\n')).toBe('{"error":"facilitator unreachable", "retry": true}');
  });

  it("turns escape sequences, bidi overrides and NUL into spaces, so a body cannot repaint the terminal", () => {
    const excerpt = bodyExcerpt("\u001b[2J\u001b]0;owned\u0007bad\u202egateway\u0000!") ?? "";
    expect(excerpt).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);
    expect(excerpt).toBe("[2J ]0;owned bad gateway !");
  });

  it("cuts a long body at the limit and marks the cut", () => {
    const excerpt = bodyExcerpt("x".repeat(10_000)) ?? "";
    expect([...excerpt]).toHaveLength(BODY_EXCERPT_LIMIT + 1);
    expect(excerpt.endsWith("…")).toBe(true);
  });

  it("has nothing to say about an empty or blank body", () => {
    expect(bodyExcerpt("")).toBeUndefined();
    expect(bodyExcerpt(" \r\n\t\u0000 ")).toBeUndefined();
  });
});
