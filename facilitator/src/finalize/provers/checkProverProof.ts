/**
 * Checks what a prover answered before it goes on-chain: one `0x` hex string of the circuit's published
 * length, whose public inputs are the witness's. A single proof (Groth16, 352 bytes) must carry
 * `[root, R, value]`; a batch proof (the decider's `uint256[34]`, 1088 bytes) must carry `root`, `R` and `value`
 * in words 1, 2 and 8 and the fixed words the verifier requires. A proof over another statement would only
 * revert on-chain (and cost gas), so it is refused here as `prover_output_invalid`.
 */
import { DECIDER_WITHDRAW_WORDS, decodeDeciderWithdrawProof, decodeGroth16Proof, GROTH16_PROOF_BYTES, ProofEncodingError } from "@svc/scheme";
import { hexToBigInt, size, type Hex } from "viem";
import type { WithdrawProofInputs } from "../proverPort.js";
import { ProverOutputInvalidError, type ProverErrorContext } from "./errors.js";

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

/** What {@link checkProverProof} compares: the answer, and the inputs and circuit it was asked for. */
export type CheckProverProofParameters = ProverErrorContext & {
  /** The proof as the prover wrote it (already trimmed of surrounding whitespace). */
  proof: string;
  inputs: WithdrawProofInputs;
};

/**
 * Returns the proof (lowercase hex) when it is one for `inputs`; throws {@link ProverOutputInvalidError} saying
 * what is wrong, without quoting the answer.
 *
 * @example
 * const proof = checkProverProof({ adapter: "command", circuit: "single", proof: stdout.trim(), inputs });
 */
export function checkProverProof({ proof, inputs, ...context }: CheckProverProofParameters): Hex {
  const invalid = (problem: string) => new ProverOutputInvalidError({ ...context, problem });
  if (!HEX_BYTES.test(proof)) throw invalid(`expected one 0x-prefixed hex string of whole bytes, got ${Buffer.byteLength(proof)} bytes of something else`);
  const bytes: Hex = `0x${proof.slice(2).toLowerCase()}`;
  const expectedBytes = context.circuit === "single" ? GROTH16_PROOF_BYTES : DECIDER_WITHDRAW_WORDS * 32;
  if (size(bytes) !== expectedBytes) throw invalid(`expected ${expectedBytes} bytes, got ${size(bytes)}`);
  const expected = { root: inputs.root, recipientHash: hexToBigInt(inputs.recipientHash), value: inputs.value };
  const actual = context.circuit === "single" ? publicInputsOfGroth16(bytes) : publicInputsOfDecider(bytes, invalid);
  const differing = (["root", "recipientHash", "value"] as const).filter((name) => actual[name] !== expected[name]);
  if (differing.length > 0) {
    const names = new Intl.ListFormat("en", { type: "conjunction" }).format(differing.map((name) => PUBLIC_INPUT_NAMES[name]));
    throw invalid(`its public ${names} ${differing.length === 1 ? "is" : "are"} not the witness's`);
  }
  return bytes;
}

const PUBLIC_INPUT_NAMES = { root: "transfer root", recipientHash: "recipient hash", value: "value" } as const;

type PublicInputs = { root: bigint; recipientHash: bigint; value: bigint };

function publicInputsOfGroth16(bytes: Hex): PublicInputs {
  const [root, recipientHash, value] = decodeGroth16Proof(bytes).publicInputs;
  return { root, recipientHash, value };
}

function publicInputsOfDecider(bytes: Hex, invalid: (problem: string) => ProverOutputInvalidError): PublicInputs {
  try {
    const { root, recipientHash, totalValue } = decodeDeciderWithdrawProof(bytes);
    return { root, recipientHash, value: totalValue };
  } catch (error) {
    if (error instanceof ProofEncodingError) throw invalid("its initial and final states (words 1-4 and 5-8) do not line up");
    throw error;
  }
}
