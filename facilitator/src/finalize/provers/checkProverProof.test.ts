import { FIXTURE_PROVER_PRIVATE_KEY, signFixtureDeciderWithdrawProof, signFixtureGroth16Proof } from "@svc/scheme";
import { concat, hexToBigInt, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { checkProverProof } from "./checkProverProof.js";
import { ProverOutputInvalidError } from "./errors.js";
import { buildBatchWithdrawProofInputs, buildWithdrawProofInputs } from "./testing/buildWithdrawProofInputs.js";

const single = buildWithdrawProofInputs();
const batch = buildBatchWithdrawProofInputs();

function groth16(change: { root?: bigint; recipientHash?: bigint; value?: bigint } = {}): Promise<Hex> {
  const publicInputs = [change.root ?? single.root, change.recipientHash ?? hexToBigInt(single.recipientHash), change.value ?? single.value] as const;
  return signFixtureGroth16Proof({ privateKey: FIXTURE_PROVER_PRIVATE_KEY, chainId: 31337n, publicInputs });
}

function decider(change: { root?: bigint; value?: bigint } = {}): Promise<Hex> {
  const proof = {
    steps: 3n,
    root: change.root ?? batch.root,
    recipientHash: hexToBigInt(batch.recipientHash),
    lastLeafPosition: 20n,
    totalValue: change.value ?? batch.value,
  };
  return signFixtureDeciderWithdrawProof({ privateKey: FIXTURE_PROVER_PRIVATE_KEY, chainId: 31337n, circuit: "withdraw_local", proof });
}

function problemOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ProverOutputInvalidError) return error.problem;
    throw error;
  }
  throw new Error("expected a ProverOutputInvalidError");
}

describe("checkProverProof", () => {
  it("returns a single proof over the witness's [root, R, value], in lower case", async () => {
    const proof = await groth16();
    expect(checkProverProof({ adapter: "command", circuit: "single", proof: proof.toUpperCase().replace("0X", "0x"), inputs: single })).toBe(proof);
  });

  it("returns a batch proof whose words 1, 2 and 8 are the witness's root, R and value", async () => {
    const proof = await decider();
    expect(checkProverProof({ adapter: "http", circuit: "batch", proof, inputs: batch })).toBe(proof);
  });

  it.each([
    ["the root", { root: 1n }, "its public transfer root is not the witness's"],
    ["the recipient hash", { recipientHash: 1n }, "its public recipient hash is not the witness's"],
    ["the value", { value: 499n }, "its public value is not the witness's"],
    ["the root and the value", { root: 1n, value: 1n }, "its public transfer root and value are not the witness's"],
  ])("refuses a single proof over another %s", async (_what, change, problem) => {
    const proof = await groth16(change);
    expect(problemOf(() => checkProverProof({ adapter: "command", circuit: "single", proof, inputs: single }))).toBe(problem);
  });

  it("refuses a batch proof over another value, and one whose fixed words do not line up", async () => {
    const otherValue = await decider({ value: 999n });
    expect(problemOf(() => checkProverProof({ adapter: "command", circuit: "batch", proof: otherValue, inputs: batch }))).toBe(
      "its public value is not the witness's",
    );
    const valid = await decider();
    // Word 3 must be 0 in a withdraw decider proof.
    const broken = concat([`0x${valid.slice(2, 2 + 3 * 64)}`, `0x${"00".repeat(31)}01`, `0x${valid.slice(2 + 4 * 64)}`]);
    expect(problemOf(() => checkProverProof({ adapter: "command", circuit: "batch", proof: broken, inputs: batch }))).toBe(
      "its initial and final states (words 1-4 and 5-8) do not line up",
    );
  });

  it.each([
    ["an empty answer", "", "expected one 0x-prefixed hex string of whole bytes, got 0 bytes of something else"],
    ["hex without 0x", "ab".repeat(352), "expected one 0x-prefixed hex string of whole bytes, got 704 bytes of something else"],
    ["an odd number of digits", `0x${"a".repeat(703)}`, "expected one 0x-prefixed hex string of whole bytes, got 705 bytes of something else"],
    [
      "two proofs on two lines",
      `0x${"ab".repeat(352)}\n0x${"ab".repeat(352)}`,
      "expected one 0x-prefixed hex string of whole bytes, got 1413 bytes of something else",
    ],
    ["a batch-length answer to the single circuit", `0x${"00".repeat(1088)}`, "expected 352 bytes, got 1088"],
  ])("refuses %s", (_what, proof, problem) => {
    expect(problemOf(() => checkProverProof({ adapter: "command", circuit: "single", proof, inputs: single }))).toBe(problem);
  });

  it("refuses a single-length answer to the batch circuit", async () => {
    const proof = await groth16();
    expect(problemOf(() => checkProverProof({ adapter: "http", circuit: "batch", proof, inputs: batch }))).toBe("expected 1088 bytes, got 352");
  });

  it("pins the error text, which names neither the output nor the witness", async () => {
    const proof = await groth16({ value: 1n });
    expect(() => checkProverProof({ adapter: "command", circuit: "single", proof, inputs: single })).toThrowErrorMatchingInlineSnapshot(
      `[ProverOutputInvalidError: The prover program's output is not a single proof of this witness: its public value is not the witness's.]`,
    );
    expect(() => checkProverProof({ adapter: "http", circuit: "batch", proof: "not a proof", inputs: batch })).toThrowErrorMatchingInlineSnapshot(
      `[ProverOutputInvalidError: The prover service's answer is not a batch proof of this witness: expected one 0x-prefixed hex string of whole bytes, got 11 bytes of something else.]`,
    );
  });
});
