import { describe, expect, it } from "vitest";
import { InvalidStackProverError, parseStackProver } from "./parseStackProver.js";

describe("parseStackProver", () => {
  it("maps fixture and groth16 to the single-teleport verifier kinds and defaults to fixture proofs", () => {
    expect(parseStackProver("groth16")).toBe("groth16");
    expect(parseStackProver("fixture")).toBe("fixture-signature");
    expect(parseStackProver(undefined)).toBe("fixture-signature");
    expect(parseStackProver("")).toBe("fixture-signature");
  });

  it("refuses anything else with a named error", () => {
    expect(() => parseStackProver("snarkjs")).toThrow(InvalidStackProverError);
    expect(() => parseStackProver("constructor")).toThrowErrorMatchingInlineSnapshot(
      `[InvalidStackProverError: STACK_PROVER must be fixture or groth16, got "constructor"]`,
    );
  });
});
