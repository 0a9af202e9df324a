/** Fixture proofs for the verifier tests, signed by the published fixture key unless a test picks another. */
import { hexToBigInt, type Hex } from "viem";
import { signFixtureProof, type FixtureCircuit } from "@svc/scheme";
import { FIXTURE_PROVER_PRIVATE_KEY } from "../../accounts/devAccounts.js";
import { ANVIL_CHAIN_ID } from "../../anvil/startAnvil.js";

/** Who signs and for which circuit; defaults are the fixture key and the circuit the call expects. */
export type ProofSigning = { privateKey?: Hex; circuit?: FixtureCircuit; chainId?: bigint };

/** Root proof public inputs, in the verifier's order. */
export type RootProofInputs = {
  oldIndex: bigint;
  newIndex: bigint;
  oldHashChain: bigint;
  newHashChain: bigint;
  oldRoot: bigint;
  newRoot: bigint;
};

/** Teleport proof public inputs, in the verifier's order. */
export type TeleportProofInputs = { transferRoot: bigint; recipientHash: Hex; value: bigint };

function sign(defaultCircuit: FixtureCircuit, publicInputs: readonly bigint[], signing: ProofSigning): Promise<Hex> {
  return signFixtureProof({
    privateKey: signing.privateKey ?? FIXTURE_PROVER_PRIVATE_KEY,
    circuit: signing.circuit ?? defaultCircuit,
    chainId: signing.chainId ?? BigInt(ANVIL_CHAIN_ID),
    publicInputs,
  });
}

/** `abi.encode([oldIndex, newIndex, oldHashChain, newHashChain, oldRoot, newRoot], signature)` for `root`. */
export function signRootProof(inputs: RootProofInputs, signing: ProofSigning = {}): Promise<Hex> {
  const { oldIndex, newIndex, oldHashChain, newHashChain, oldRoot, newRoot } = inputs;
  return sign("root", [oldIndex, newIndex, oldHashChain, newHashChain, oldRoot, newRoot], signing);
}

/** `abi.encode([transferRoot, recipientHash, value], signature)`, for `withdraw_single` by default. */
export function signTeleportProof(inputs: TeleportProofInputs, signing: ProofSigning = {}): Promise<Hex> {
  return sign("withdraw_single", [inputs.transferRoot, hexToBigInt(inputs.recipientHash), inputs.value], signing);
}
