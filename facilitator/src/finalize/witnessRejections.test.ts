import { describe, expect, it } from "vitest";
import { createWitnessRejections } from "./witnessRejections.js";

const nonce = `0x${"ab".repeat(32)}` as const;
const other = `0x${"cd".repeat(32)}` as const;

describe("createWitnessRejections", () => {
  it("counts each payment's refusals on its own, whatever the case of its nonce, until cleared", () => {
    const rejections = createWitnessRejections();
    expect(rejections.refused(nonce)).toBe(1);
    expect(rejections.refused(nonce.toUpperCase().replace("0X", "0x") as `0x${string}`)).toBe(2);
    expect(rejections.refused(other)).toBe(1);
    rejections.clear(nonce);
    expect(rejections.refused(nonce)).toBe(1);
    expect(rejections.refused(other)).toBe(2);
  });
});
