/**
 * Test harness: the proof a mint carried, read back from its transaction, and what the stack's single-teleport
 * verifier says about a proof, so a test can show that a payment was minted with a real Groth16 proof (one the
 * exported verifier accepts) and that the same verifier refuses a fixture-signed one. Test-only code.
 */
import { decodeGroth16Proof, FIXTURE_PROVER_PRIVATE_KEY, groth16VerifierAbi, signFixtureGroth16Proof, zerc20VerifierAbi } from "@svc/scheme";
import { decodeFunctionData, type Hex } from "viem";
import type { TestStack } from "./localFacilitator.js";

/** The function a mint called and the proof bytes it carried. */
export async function mintedProof(stack: TestStack, mintTxHash: Hex): Promise<{ functionName: string; proof: Hex }> {
  const transaction = await stack.client.getTransaction({ hash: mintTxHash });
  const call = decodeFunctionData({ abi: zerc20VerifierAbi, data: transaction.input });
  if (call.functionName !== "singleTeleport" && call.functionName !== "teleport") throw new TypeError(`the mint called ${call.functionName}`);
  return { functionName: call.functionName, proof: call.args[3] };
}

/** Whether the stack's `withdraw_single` verifier accepts the 352-byte `proof` for its own public inputs. */
export async function singleVerifierAccepts(stack: TestStack, proof: Hex): Promise<boolean> {
  const { a, b, c, publicInputs } = decodeGroth16Proof(proof);
  return stack.client.readContract({
    address: stack.deployment.proofVerifiers.withdraw_single,
    abi: groth16VerifierAbi,
    functionName: "verifyProof",
    args: [a, b, c, publicInputs],
  });
}

/** A fixture-signed proof over the same public inputs as `proof`: what a stack of real proofs must refuse. */
export async function fixtureProofLike(stack: TestStack, proof: Hex): Promise<Hex> {
  const { publicInputs } = decodeGroth16Proof(proof);
  return signFixtureGroth16Proof({ privateKey: FIXTURE_PROVER_PRIVATE_KEY, chainId: BigInt(stack.deployment.chainId), publicInputs });
}
