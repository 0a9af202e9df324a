/**
 * zERC20 v2 (every published deployment): burn address `P3(0x6e727562, R, s)` (the domain is "burn" read
 * little-endian) with a 16-bit proof of work, leaf `P3(from, to, value)`, hash chain with `from`, an EIP-2612
 * token, and the six-field `Teleport` mint event that carries the general recipient.
 */
import { poseidon3 } from "poseidon-lite";
import { encodePacked, hexToBigInt, sha256 } from "viem";
import { teleportEventAbiV2, zerc20TokenAbi, zerc20VerifierAbiV2 } from "../abis.js";
import { HASH_CHAIN_MASK } from "./hashChainMask.js";
import type { Zerc20Protocol } from "./zerc20Protocol.js";

/** `"burn"` as a little-endian field element: the domain of the v2 burn-address hash. */
export const BURN_ADDRESS_DOMAIN_V2 = 0x6e727562n;

const [teleportEvent] = teleportEventAbiV2;

/** The v2 protocol. */
export const zerc20V2: Zerc20Protocol = {
  version: "zerc20-v2",
  burnAddressPowBits: 16,
  burnAddressPrefix: (recipientFr) => [BURN_ADDRESS_DOMAIN_V2, recipientFr],
  burnAddressHash: (recipientFr, secret) => poseidon3([BURN_ADDRESS_DOMAIN_V2, recipientFr, secret]),
  transferLeaf: ({ from, to, value }) => poseidon3([hexToBigInt(from), hexToBigInt(to), value]),
  nextHashChain: (previous, { from, to, value }) =>
    hexToBigInt(sha256(encodePacked(["uint256", "address", "address", "uint256"], [previous, from, to, value]))) & HASH_CHAIN_MASK,
  tokenHasPermit: true,
  tokenAbi: zerc20TokenAbi,
  verifierAbi: zerc20VerifierAbiV2,
  teleportEvent,
};
