/**
 * The fixture proof verifiers accept exactly the proofs the scheme's fixture signers make, in the published
 * encodings, and nothing else: another public input, another circuit's instance, another key or chain, a
 * malformed signature.
 */
import { describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import {
  decodeDeciderWithdrawProof,
  decodeGroth16Proof,
  DECIDER_ROOT_WORDS,
  DECIDER_WITHDRAW_SNARK_OFFSET,
  fixtureCircuitTag,
  groth16VerifierAbi,
  signFixtureDeciderWithdrawProof,
  signFixtureGroth16Proof,
  signFixtureRootProof,
  type Groth16Proof,
} from "@svc/scheme";
import { decodeAbiParameters } from "viem";
import { FIXTURE_PROVER_ADDRESS, FIXTURE_PROVER_PRIVATE_KEY } from "../accounts/devAccounts.js";
import type { OnChainFixtureCircuit } from "../deploy/deployContracts.js";
import { fixtureProofSignerAbi, rootDeciderVerifierAbi, withdrawDeciderVerifierAbi } from "./deciderVerifierAbis.js";
import { useLocalChain } from "./testing/useLocalChain.js";

const chain = useLocalChain();
const INPUTS = [11n, 22n, 33n] as const;

async function groth16(privateKey: Hex = FIXTURE_PROVER_PRIVATE_KEY, chainId = 31337n): Promise<Groth16Proof> {
  return decodeGroth16Proof(await signFixtureGroth16Proof({ privateKey, chainId, publicInputs: INPUTS }));
}

function verifyGroth16(proof: Groth16Proof, address = chain().deployment.proofVerifiers.withdraw_single): Promise<boolean> {
  return chain().publicClient.readContract({
    address,
    abi: groth16VerifierAbi,
    functionName: "verifyProof",
    args: [proof.a, proof.b, proof.c, proof.publicInputs],
  });
}

const withdrawProof = { steps: 2n, root: 77n, recipientHash: 88n, lastLeafPosition: 5n, totalValue: 99n };

async function withdrawWords(circuit: "withdraw_local" | "withdraw_global", privateKey: Hex = FIXTURE_PROVER_PRIVATE_KEY): Promise<bigint[]> {
  const bytes = await signFixtureDeciderWithdrawProof({ privateKey, chainId: 31337n, circuit, proof: withdrawProof });
  const [words] = decodeAbiParameters([{ type: "uint256[34]" }], bytes);
  return [...words];
}

function verifyWithdraw(circuit: "withdraw_local" | "withdraw_global", words: readonly bigint[]): Promise<boolean> {
  return chain().publicClient.readContract({
    address: chain().deployment.proofVerifiers[circuit],
    abi: withdrawDeciderVerifierAbi,
    functionName: "verifyOpaqueNovaProof",
    args: [words as never],
  });
}

const rootStates = { steps: 3n, old: { index: 0n, hashChain: 0n, root: 5n }, new: { index: 3n, hashChain: 6n, root: 7n } };

async function rootWords(privateKey: Hex = FIXTURE_PROVER_PRIVATE_KEY): Promise<bigint[]> {
  const [words] = decodeAbiParameters([{ type: "uint256[32]" }], await signFixtureRootProof({ privateKey, chainId: 31337n, ...rootStates }));
  return [...words];
}

function verifyRoot(words: readonly bigint[]): Promise<boolean> {
  return chain().publicClient.readContract({
    address: chain().deployment.proofVerifiers.root,
    abi: rootDeciderVerifierAbi,
    functionName: "verifyOpaqueNovaProof",
    args: [words as never],
  });
}

const replaced = (words: readonly bigint[], at: number, value: bigint): bigint[] => words.map((word, index) => (index === at ? value : word));

describe("fixture proof verifiers", () => {
  it.each<OnChainFixtureCircuit>(["root", "withdraw_single", "withdraw_local", "withdraw_global"])(
    "the %s verifier accepts the fixture prover and carries its circuit tag",
    async (circuit) => {
      const { publicClient, deployment } = chain();
      const address = deployment.proofVerifiers[circuit];
      const read = <Name extends "signer" | "circuit">(functionName: Name) => publicClient.readContract({ address, abi: fixtureProofSignerAbi, functionName });
      expect([await read("signer"), await read("circuit")]).toEqual([FIXTURE_PROVER_ADDRESS, fixtureCircuitTag(circuit)]);
    },
  );
});

describe("FixtureGroth16Verifier", () => {
  it("accepts signFixtureGroth16Proof's 352 bytes through verifyProof(a, b, c, publicInputs)", async () => {
    expect(await verifyGroth16(await groth16())).toBe(true);
  });

  it("rejects another public input, another key, another chain, a broken v and another circuit's instance", async () => {
    const proof = await groth16();
    expect(await verifyGroth16({ ...proof, publicInputs: [11n, 22n, 34n] })).toBe(false);
    expect(await verifyGroth16(await groth16(generatePrivateKey()))).toBe(false);
    expect(await verifyGroth16(await groth16(FIXTURE_PROVER_PRIVATE_KEY, 1n))).toBe(false);
    expect(await verifyGroth16({ ...proof, b: [[300n, 0n], proof.b[1]] })).toBe(false);
    expect(await verifyGroth16({ ...proof, a: [proof.a[0], (1n << 256n) - 1n] })).toBe(false);
    // The decider's address answers a different selector: the call reverts instead of saying yes.
    await expect(verifyGroth16(proof, chain().deployment.proofVerifiers.withdraw_local)).rejects.toThrow();
  });
});

describe("FixtureWithdrawDeciderVerifier", () => {
  it("accepts signFixtureDeciderWithdrawProof's 34 words, local and global each on its own instance", async () => {
    const local = await withdrawWords("withdraw_local");
    const global = await withdrawWords("withdraw_global");
    expect(
      decodeDeciderWithdrawProof(
        await signFixtureDeciderWithdrawProof({ privateKey: FIXTURE_PROVER_PRIVATE_KEY, chainId: 31337n, circuit: "withdraw_local", proof: withdrawProof }),
      ).totalValue,
    ).toBe(99n);
    expect(await verifyWithdraw("withdraw_local", local)).toBe(true);
    expect(await verifyWithdraw("withdraw_global", global)).toBe(true);
    expect(await verifyWithdraw("withdraw_global", local)).toBe(false);
    expect(await verifyWithdraw("withdraw_local", global)).toBe(false);
  });

  it("rejects a change to any public word 0..8, another key and a broken signature", async () => {
    const words = await withdrawWords("withdraw_local");
    for (let index = 0; index < DECIDER_WITHDRAW_SNARK_OFFSET; index++) {
      expect(await verifyWithdraw("withdraw_local", replaced(words, index, (words[index] ?? 0n) + 1n)), `word ${index}`).toBe(false);
    }
    expect(await verifyWithdraw("withdraw_local", await withdrawWords("withdraw_local", generatePrivateKey()))).toBe(false);
    expect(await verifyWithdraw("withdraw_local", replaced(words, DECIDER_WITHDRAW_SNARK_OFFSET + 2, 29n))).toBe(false);
  });
});

describe("FixtureRootDeciderVerifier", () => {
  it("accepts signFixtureRootProof's 32 words and rejects a changed state word, another key or a broken signature", async () => {
    const words = await rootWords();
    expect(words).toHaveLength(DECIDER_ROOT_WORDS);
    expect(await verifyRoot(words)).toBe(true);
    for (let index = 0; index < 7; index++) {
      expect(await verifyRoot(replaced(words, index, (words[index] ?? 0n) + 1n)), `word ${index}`).toBe(false);
    }
    expect(await verifyRoot(await rootWords(generatePrivateKey()))).toBe(false);
    expect(await verifyRoot(replaced(words, 9, 0n))).toBe(false);
  });
});
