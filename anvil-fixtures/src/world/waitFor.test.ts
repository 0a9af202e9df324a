import { describe, expect, it } from "vitest";
import { waitFor, WaitTimeoutError } from "./waitFor.js";

describe("waitFor", () => {
  it("resolves with the first value that is not undefined, null or false", async () => {
    const answers = [undefined, null, false, 0, 1];
    let checks = 0;
    const value = await waitFor(() => answers[checks++], { what: "a value", intervalMs: 1 });
    expect(value).toBe(0);
    expect(checks).toBe(4);
  });

  it("checks once more at the deadline, then names what it waited for", async () => {
    let checks = 0;
    const waiting = waitFor(
      () => {
        checks += 1;
        return false;
      },
      { what: "the settlement finalized", timeoutMs: 30, intervalMs: 10 },
    );
    await expect(waiting).rejects.toThrow(WaitTimeoutError);
    await expect(waiting).rejects.toThrowErrorMatchingInlineSnapshot(`[WaitTimeoutError: the settlement finalized: not reached within 30 ms]`);
    expect(checks).toBeGreaterThanOrEqual(2);
  });
});
