/**
 * The fixed burn-address searches every Poseidon measurement uses: search `i` of a version always has the
 * same recipient and secret base, so each path finds the same nonces (the bench checks that it does) and
 * two runs of `make bench` hash the same permutations.
 */
import { createHash } from "node:crypto";
import { BN254_FIELD_MODULUS, type ProtocolVersion, zerc20Protocol } from "@svc/scheme";

/** The inputs of one search: the version's hash prefix for the recipient, the secret base and the proof-of-work bits. */
export type SearchSeed = { prefix: readonly bigint[]; secretBase: bigint; powBits: number };

const fieldElement = (label: string): bigint => BigInt(`0x${createHash("sha256").update(label).digest("hex")}`) % BN254_FIELD_MODULUS;

/**
 * Search `index` of `version`. The recipient is shifted right a byte, like an address-sized field element,
 * the secret base is a full field element.
 *
 * @example
 * const { prefix, secretBase, powBits } = searchSeed("zerc20-v2", 0);
 * implementation.searchBurnNonce(prefix, secretBase, powBits);
 */
export function searchSeed(version: ProtocolVersion, index: number): SearchSeed {
  const protocol = zerc20Protocol(version);
  const recipientFr = fieldElement(`svc-zerc20 bench poseidon ${version} recipient ${index}`) >> 8n;
  return {
    prefix: protocol.burnAddressPrefix(recipientFr),
    secretBase: fieldElement(`svc-zerc20 bench poseidon ${version} secret ${index}`),
    powBits: protocol.burnAddressPowBits,
  };
}
