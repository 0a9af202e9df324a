import { describe, expect, it } from "vitest";
import { decodeGroth16Proof, encodeGroth16Proof } from "./groth16Proof.js";
import { ProofEncodingError } from "./errors.js";
import { groth16ProofFromSnarkjs } from "./snarkjsGroth16Proof.js";

// The shape snarkjs writes: decimal strings, projective coordinates ending in 1 (G1) or [1, 0] (G2).
const proof = {
  pi_a: ["11", "12", "1"],
  pi_b: [
    ["21", "22"],
    ["23", "24"],
    ["1", "0"],
  ],
  pi_c: ["31", "32", "1"],
  protocol: "groth16",
  curve: "bn128",
};

describe("groth16ProofFromSnarkjs", () => {
  it("drops the projective coordinate and writes each G2 coordinate as [c1, c0], as the EVM pairing takes it", () => {
    const read = groth16ProofFromSnarkjs(proof, ["41", "42", "43"]);
    expect(read).toEqual({
      a: [11n, 12n],
      b: [
        [22n, 21n],
        [24n, 23n],
      ],
      c: [31n, 32n],
      publicInputs: [41n, 42n, 43n],
    });
    expect(decodeGroth16Proof(encodeGroth16Proof(read))).toEqual(read);
  });

  it.each([
    ["a PLONK proof", { ...proof, protocol: "plonk" }, ["1", "2", "3"]],
    ["another curve", { ...proof, curve: "bls12381" }, ["1", "2", "3"]],
    ["hex instead of decimal", { ...proof, pi_a: ["0x11", "12", "1"] }, ["1", "2", "3"]],
    ["a missing point", { ...proof, pi_c: undefined }, ["1", "2", "3"]],
    ["two public signals", proof, ["1", "2"]],
    ["a negative public signal", proof, ["-1", "2", "3"]],
  ])("refuses %s with a ProofEncodingError", (_what, candidate, publicSignals) => {
    expect(() => groth16ProofFromSnarkjs(candidate, publicSignals)).toThrow(ProofEncodingError);
  });
});
