/**
 * Single teleports with real Groth16 proofs of the local circuit, both versions: the verifier deployed with
 * `singleTeleportVerifier: "groth16"` mints from a real proof of a transfer into a burn address, and refuses
 * what only a real circuit can refuse. A wrong witness (siblings out of order, a leaf index off by one, a leaf
 * without its sender, a secret that fails the proof of work, a delta above the value) has no proof at all;
 * a real proof of a root other than the proved one reverts on chain.
 */
import { beforeAll, describe, expect, it } from "vitest";
import * as snarkjs from "snarkjs";
import { type Address, hexToBigInt, keccak256, toHex } from "viem";
import {
  BN254_FIELD_MODULUS,
  deriveBurnAddress,
  encodeGroth16Proof,
  groth16ProofFromSnarkjs,
  groth16VerifierAbi,
  merkleNode,
  type ProtocolVersion,
  zeroHashes,
  zerc20Protocol,
  zerc20TokenAbiV1,
} from "@svc/scheme";
import { buildSingleTeleportCircuit, SINGLE_TELEPORT_TREE_HEIGHT, type SingleTeleportCircuit } from "../circuits/buildSingleTeleportCircuit.js";
import { expectRevert } from "./testing/expectRevert.js";
import { expectedRecipientHash } from "./testing/expectedRecipientHash.js";
import { buildGeneralRecipient } from "./testing/generalRecipient.js";
import { useLocalChain } from "./testing/useLocalChain.js";
import { proveFirstRoot, submitTeleport, verifierContract } from "./testing/verifierActions.js";

/** The circuit's input names, values as decimal strings (what snarkjs reads). */
type CircuitInput = {
  transferRoot: bigint;
  recipientHash: bigint;
  withdrawValue: bigint;
  secret: bigint;
  from: bigint;
  value: bigint;
  delta: bigint;
  leafIndex: bigint;
  siblings: bigint[];
};

const stringify = (input: CircuitInput) => JSON.parse(JSON.stringify(input, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value)));

/** The root of `leaves` (positions 0 .. n-1, the rest empty) and the path of the leaf at `index`. */
function treeWith(leaves: readonly bigint[], index: number): { root: bigint; siblings: bigint[] } {
  const zeros = zeroHashes();
  let level = [...leaves];
  let position = index;
  const siblings: bigint[] = [];
  for (let height = 0; height < SINGLE_TELEPORT_TREE_HEIGHT; height++) {
    siblings.push(level[position ^ 1] ?? zeros[height]!);
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(merkleNode(level[i]!, level[i + 1] ?? zeros[height]!));
    level = next;
    position >>= 1;
  }
  return { root: level[0]!, siblings };
}

const fieldOf = (label: string) => hexToBigInt(keccak256(toHex(label))) >> 8n;

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("verifier %s: real Groth16 single teleports", (version) => {
  let circuit: SingleTeleportCircuit;
  // Built first (and cached): the deployment below reads the same verifier.
  beforeAll(async () => {
    circuit = await buildSingleTeleportCircuit({ protocol: version });
  }, 600_000);
  const chain = useLocalChain({ protocol: version, singleTeleportVerifier: "groth16" });
  const protocol = zerc20Protocol(version);

  /** A transfer of `value` from `from` into the burn address of the treasury's recipient, at leaf 5 of 8. */
  function paymentInTree(value: bigint) {
    const gr = buildGeneralRecipient(chain().accounts.treasury.address, `groth16-${version}`);
    const recipientHash = expectedRecipientHash(gr);
    const { burnAddress, secret } = deriveBurnAddress(protocol, recipientHash, fieldOf(`secret base ${version}`));
    const from: Address = chain().accounts.payer.address;
    const leaf = protocol.transferLeaf({ from, to: burnAddress, value });
    const leaves = Array.from({ length: 8 }, (_, i) => (i === 5 ? leaf : fieldOf(`other leaf ${i}`)));
    const { root, siblings } = treeWith(leaves, 5);
    const input: CircuitInput = {
      transferRoot: root,
      recipientHash,
      withdrawValue: value,
      secret,
      from: hexToBigInt(from),
      value,
      delta: 0n,
      leafIndex: 5n,
      siblings,
    };
    return { gr, recipientHash, leaves, input };
  }

  async function prove(input: CircuitInput) {
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(stringify(input), circuit.wasmPath, circuit.zkeyPath);
    return { proof, publicSignals, groth16: groth16ProofFromSnarkjs(proof, publicSignals) };
  }

  it("mints value − δ from a real proof, which the exported verifier accepts and a changed public input breaks", async () => {
    const current = chain();
    const value = 7n * 10n ** 18n;
    const delta = 2n * 10n ** 18n;
    const { gr, recipientHash, input } = paymentInTree(value);
    const withDelta = { ...input, delta, withdrawValue: value - delta };
    const rootHint = await proveFirstRoot(current, input.transferRoot);

    const { proof, publicSignals, groth16 } = await prove(withDelta);
    expect(groth16.publicInputs).toEqual([input.transferRoot, recipientHash, value - delta]);
    expect(await snarkjs.groth16.verify(circuit.verificationKey, publicSignals, proof)).toBe(true);
    const verifyOnChain = (publicInputs: readonly [bigint, bigint, bigint]) =>
      current.publicClient.readContract({
        address: current.deployment.proofVerifiers.withdraw_single,
        abi: groth16VerifierAbi,
        functionName: "verifyProof",
        args: [groth16.a, groth16.b, groth16.c, publicInputs],
      });
    expect(await verifyOnChain(groth16.publicInputs)).toBe(true);
    expect(await verifyOnChain([input.transferRoot, recipientHash, value])).toBe(false);

    await current.mined(submitTeleport(current, "singleTeleport", false, rootHint, gr, encodeGroth16Proof(groth16)));
    const balance = await current.publicClient.readContract({
      address: current.deployment.token,
      abi: zerc20TokenAbiV1,
      functionName: "balanceOf",
      args: [current.accounts.treasury.address],
    });
    expect(balance).toBe(value - delta);
    expect(await current.publicClient.readContract({ ...verifierContract(current), functionName: "totalTeleported", args: [recipientHash] })).toBe(
      value - delta,
    );
  });

  it("has no proof for a wrong witness", async () => {
    const { input, leaves } = paymentInTree(1000n);
    const [first, second, ...rest] = input.siblings;
    const wrong: [string, CircuitInput][] = [
      ["siblings out of order", { ...input, siblings: [second!, first!, ...rest] }],
      ["a leaf index off by one", { ...input, leafIndex: 4n }],
      ["a secret that fails the proof of work", { ...input, secret: input.secret + 1n }],
      ["a delta above the value", { ...input, delta: 1001n, withdrawValue: BN254_FIELD_MODULUS - 1n }],
    ];
    // Only a v2 leaf commits to the sender; under v1 `from` is not part of the statement.
    if (version === "zerc20-v2") wrong.push(["a leaf without its sender", { ...input, from: 0n }]);
    for (const [what, witness] of wrong) {
      await expect(prove(witness), what).rejects.toThrow(/Assert Failed/);
    }
    // The same tree with the right witness proves.
    expect(treeWith(leaves, 5).root).toBe(input.transferRoot);
    await expect(prove(input)).resolves.toBeDefined();
  });

  it("refuses on chain a real proof of a root other than the proved one", async () => {
    const current = chain();
    const value = 3n * 10n ** 18n;
    const { gr, input, leaves } = paymentInTree(value);
    const rootHint = await proveFirstRoot(current, input.transferRoot);
    // A consistent proof of the leaf one position over: valid for its own root, which was never proved.
    const shifted = treeWith(
      leaves.map((leaf, i) => (i === 5 ? 0n : i === 6 ? leaves[5]! : leaf)),
      6,
    );
    const { groth16 } = await prove({ ...input, leafIndex: 6n, siblings: shifted.siblings, transferRoot: shifted.root });
    await expectRevert(submitTeleport(current, "singleTeleport", false, rootHint, gr, encodeGroth16Proof(groth16)), "TransferRootMismatch");
  });
});
