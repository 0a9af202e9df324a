/**
 * The token's transfer hash chain: `sha256(prev || to || value)` kept to 248 bits, advanced once per
 * IndexedTransfer. This project uses the variant without `from`; the fixture token implements the same.
 */
import { encodePacked, hexToBigInt, sha256, type Address } from "viem";

/** Mask that keeps the low 248 bits (the chain and every value fit a BN254 field element). */
export const HASH_CHAIN_MASK = (1n << 248n) - 1n;

/** The hash chain after one more transfer of `value` to `to`. */
export function nextHashChain(prev: bigint, to: Address, value: bigint): bigint {
  return hexToBigInt(sha256(encodePacked(["uint256", "address", "uint256"], [prev, to, value]))) & HASH_CHAIN_MASK;
}
