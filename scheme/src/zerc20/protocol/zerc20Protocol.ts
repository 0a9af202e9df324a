/**
 * The protocol seam: everything the two zERC20 versions define differently (burn-address formula and its proof
 * of work, transfer leaf, hash chain, token and verifier ABIs, mint events), behind one type with one
 * implementation per version. Callers hold a `Zerc20Protocol` chosen once from configuration and never name a
 * version themselves. What both versions share (recipient hash, tree height and node hash, indexer JSON, proof
 * encodings, the common verifier functions) lives beside this folder and needs no seam.
 */
import type { Abi, AbiEvent } from "viem";
import { zerc20V1 } from "./zerc20V1.js";
import { zerc20V2 } from "./zerc20V2.js";
import type { ProtocolVersion } from "./protocolVersion.js";
import type { IndexedTransferFields } from "./transfer.js";

/** What one protocol version defines. */
export type Zerc20Protocol = {
  readonly version: ProtocolVersion;
  /** Bits 160 .. 160 + n − 1 of the burn-address hash that must be zero (v1 12, v2 16). */
  readonly burnAddressPowBits: number;
  /** The Poseidon inputs that precede the secret in the burn-address hash (v1 `[R]`, v2 `[0x6e727562, R]`). */
  burnAddressPrefix(recipientFr: bigint): readonly bigint[];
  /** The burn-address hash of a recipient hash and a secret, computed with `poseidon-lite` (the reference). */
  burnAddressHash(recipientFr: bigint, secret: bigint): bigint;
  /** The transfer tree's leaf for one transfer (v1 `P2(to, value)`, v2 `P3(from, to, value)`). */
  transferLeaf(transfer: IndexedTransferFields): bigint;
  /** The token's hash chain after one more transfer (v2 includes `from`). */
  nextHashChain(previous: bigint, transfer: IndexedTransferFields): bigint;
  /** Whether the version's token implements EIP-2612 permit (a deployed token is still probed: see `check`). */
  readonly tokenHasPermit: boolean;
  /** The token's ABI. */
  readonly tokenAbi: Abi;
  /** The verifier's ABI: the common functions plus this version's events, overloads and errors. */
  readonly verifierAbi: Abi;
  /** The event the verifier emits for a plain teleport mint. */
  readonly teleportEvent: AbiEvent;
};

const PROTOCOLS: Record<ProtocolVersion, Zerc20Protocol> = { "zerc20-v1": zerc20V1, "zerc20-v2": zerc20V2 };

/**
 * The implementation of `version`.
 *
 * @example
 * const protocol = zerc20Protocol("zerc20-v2");
 * protocol.burnAddressPowBits; // 16
 */
export function zerc20Protocol(version: ProtocolVersion): Zerc20Protocol {
  return PROTOCOLS[version];
}
