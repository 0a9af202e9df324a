/**
 * zERC20 v1 (the older release): burn address `P2(R, s)` with a 12-bit proof of work, leaf `P2(to, value)`,
 * hash chain without `from`, a token without permit, and the two-field `Teleport(to, value)` mint event.
 */
import { poseidon2 } from "poseidon-lite";
import { encodePacked, hexToBigInt, sha256 } from "viem";
import { teleportEventAbiV1, zerc20TokenAbiV1, zerc20VerifierAbiV1 } from "../abis.js";
import { HASH_CHAIN_MASK } from "./hashChainMask.js";
import type { Zerc20Protocol } from "./zerc20Protocol.js";

const [teleportEvent] = teleportEventAbiV1;

/** The v1 protocol. */
export const zerc20V1: Zerc20Protocol = {
  version: "zerc20-v1",
  burnAddressPowBits: 12,
  burnAddressPrefix: (recipientFr) => [recipientFr],
  burnAddressHash: (recipientFr, secret) => poseidon2([recipientFr, secret]),
  transferLeaf: ({ to, value }) => poseidon2([hexToBigInt(to), value]),
  nextHashChain: (previous, { to, value }) => hexToBigInt(sha256(encodePacked(["uint256", "address", "uint256"], [previous, to, value]))) & HASH_CHAIN_MASK,
  tokenHasPermit: false,
  tokenAbi: zerc20TokenAbiV1,
  verifierAbi: zerc20VerifierAbiV1,
  teleportEvent,
};
