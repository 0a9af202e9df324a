import { describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { decodeFixtureProof, fixtureCircuitTag, fixtureProofVerifierAbi, signFixtureProof, type FixtureCircuit } from "@svc/scheme";
import { FIXTURE_PROVER_ADDRESS, FIXTURE_PROVER_PRIVATE_KEY } from "../accounts/devAccounts.js";
import type { OnChainFixtureCircuit } from "../deploy/deployContracts.js";
import { useLocalChain } from "./testing/useLocalChain.js";

const chain = useLocalChain();
const INPUTS = [11n, 22n, 33n] as const;

async function proofFor(circuit: FixtureCircuit, privateKey: Hex = FIXTURE_PROVER_PRIVATE_KEY): Promise<{ signature: Hex }> {
  const proof = await signFixtureProof({ privateKey, circuit, chainId: 31337n, publicInputs: INPUTS });
  return decodeFixtureProof(proof);
}

function verify(circuit: OnChainFixtureCircuit, inputs: readonly bigint[], signature: Hex): Promise<boolean> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({
    address: deployment.proofVerifiers[circuit],
    abi: fixtureProofVerifierAbi,
    functionName: "verifyProof",
    args: [inputs, signature],
  });
}

describe("FixtureProofVerifier", () => {
  it.each<OnChainFixtureCircuit>(["root", "withdraw_single", "withdraw_local", "withdraw_global"])(
    "is deployed for %s with the fixture prover as signer",
    async (circuit) => {
      const { publicClient, deployment } = chain();
      const address = deployment.proofVerifiers[circuit];
      const read = <Name extends "signer" | "circuit">(functionName: Name) =>
        publicClient.readContract({ address, abi: fixtureProofVerifierAbi, functionName });
      expect([await read("signer"), await read("circuit")]).toEqual([FIXTURE_PROVER_ADDRESS, fixtureCircuitTag(circuit)]);
    },
  );

  it("accepts the fixture key's signature over exactly the digest of scheme's fixtureProofDigest", async () => {
    const { signature } = await proofFor("withdraw_single");
    expect(await verify("withdraw_single", INPUTS, signature)).toBe(true);
  });

  it("rejects changed inputs, another circuit's instance, another key and malformed signatures", async () => {
    const { signature } = await proofFor("withdraw_single");
    expect(await verify("withdraw_single", [11n, 22n, 34n], signature)).toBe(false);
    expect(await verify("withdraw_local", INPUTS, signature)).toBe(false);
    const other = await proofFor("withdraw_single", generatePrivateKey());
    expect(await verify("withdraw_single", INPUTS, other.signature)).toBe(false);
    expect(await verify("withdraw_single", INPUTS, "0x1234")).toBe(false);
    expect(await verify("withdraw_single", INPUTS, `0x${"ff".repeat(65)}`)).toBe(false);
  });
});
