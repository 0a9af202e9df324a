/** The token's hash chain step recomputed in TypeScript, as an independent check of the contract. */
import { encodePacked, hexToBigInt, sha256, type Address } from "viem";

/** 2^248 - 1: the largest single value and the hash chain mask. */
export const MAX_ZERC20_VALUE: bigint = (1n << 248n) - 1n;

/** `sha256(bytes32(previous) || to || value) & (2^248 - 1)`: the variant without `from`. */
export function hashChainStep(previous: bigint, to: Address, value: bigint): bigint {
  const digest = sha256(encodePacked(["bytes32", "address", "uint256"], [toBytes32(previous), to, value]));
  return hexToBigInt(digest) & MAX_ZERC20_VALUE;
}

function toBytes32(value: bigint): `0x${string}` {
  return `0x${value.toString(16).padStart(64, "0")}`;
}
