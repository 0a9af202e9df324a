/**
 * The statement every snarkjs prover thread computes a witness of before it takes work: a fixed, true
 * single-teleport statement of the configured protocol version (one transfer of 1 at leaf 0 of an otherwise
 * empty tree, into the burn address a fixed secret opens for a fixed recipient hash). A witness calculator of
 * the other version, of another statement or with other input names refuses it or fails on it, so a wrong
 * `prover.wasm` stops `start` (and shows in `check`) instead of refusing every payment's witness later.
 * The secrets are found once (the proof-of-work search costs up to 2^16 hashes) and pinned here with their
 * burn addresses; a test checks that each secret still opens its address. Nothing in it is secret.
 */
import { merkleRootFromPath, type ProtocolVersion, type SingleTeleportStatement, TRANSFER_TREE_HEIGHT, zeroHashes, zerc20Protocol } from "@svc/scheme";
import { type Address, hexToBigInt, keccak256, toHex } from "viem";

/** The self-test's recipient hash: a field element no payment uses. */
export const SELF_TEST_RECIPIENT_HASH = hexToBigInt(keccak256(toHex("svc-zerc20/prover-self-test"))) >> 8n;

/** Per version, a secret whose burn-address hash for {@link SELF_TEST_RECIPIENT_HASH} meets the proof of work, and that address. */
export const SELF_TEST_BURNS: Readonly<Record<ProtocolVersion, { secret: bigint; burnAddress: Address }>> = {
  "zerc20-v1": { secret: 0x4d4n, burnAddress: "0x4E510529d8181E4805e5239EA18ce97E8757E439" },
  "zerc20-v2": { secret: 0xe7e5n, burnAddress: "0x77Ca0c5980041f773934a6C27A6eFA3817395674" },
};

/**
 * The self-test statement of `protocol`.
 *
 * @example
 * const input = singleTeleportCircuitInput(selfTestStatement("zerc20-v2"));
 */
export function selfTestStatement(protocol: ProtocolVersion): SingleTeleportStatement {
  const version = zerc20Protocol(protocol);
  const { secret, burnAddress } = SELF_TEST_BURNS[protocol];
  const from = "0x0000000000000000000000000000000000000001";
  const leaf = version.transferLeaf({ from, to: burnAddress, value: 1n });
  const siblings = zeroHashes().slice(0, TRANSFER_TREE_HEIGHT);
  return {
    root: merkleRootFromPath(leaf, 0n, siblings),
    recipientHash: SELF_TEST_RECIPIENT_HASH,
    secret,
    transfer: { from, value: 1n, leafIndex: 0n, siblings },
  };
}
