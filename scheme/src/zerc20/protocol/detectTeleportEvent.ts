/**
 * Which version's mint event a verifier emits, read from its code: Solidity writes an event's topic 0 into
 * the bytecode as a 32-byte constant (`PUSH32`), so the code of a verifier that emits `Teleport` holds that
 * version's topic. A verifier behind an EIP-1967 proxy is read through the proxy's implementation slot. This
 * is what finalize waits for once a mint is sent; a verifier emitting the other version's event would leave
 * every mint unrecognised.
 */
import { getAddress, hexToBigInt, size, slice, toEventSelector, type Address, type Hex, type PublicClient } from "viem";
import type { ProtocolVersion } from "./protocolVersion.js";
import { zerc20Protocol } from "./zerc20Protocol.js";

/** `bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1)`. */
export const EIP1967_IMPLEMENTATION_SLOT: Hex = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

/** What the code showed. */
export type DeployedTeleportEvent = {
  /** The versions whose `Teleport` topic is in the code (normally exactly one). */
  versions: ProtocolVersion[];
  /** Whether the code was read through an EIP-1967 proxy. */
  throughProxy: boolean;
};

const VERSIONS: readonly ProtocolVersion[] = ["zerc20-v1", "zerc20-v2"];

const topicOf = (version: ProtocolVersion): string => toEventSelector(zerc20Protocol(version).teleportEvent).slice(2).toLowerCase();

/** Reads `verifier`'s code (and its EIP-1967 implementation's, when it is a proxy) for each version's `Teleport` topic. */
export async function detectTeleportEvent(client: Pick<PublicClient, "getCode" | "getStorageAt">, verifier: Address): Promise<DeployedTeleportEvent> {
  const code = ((await client.getCode({ address: verifier })) ?? "0x").toLowerCase();
  let found = VERSIONS.filter((version) => code.includes(topicOf(version)));
  let throughProxy = false;
  if (found.length === 0) {
    const slot = await client.getStorageAt({ address: verifier, slot: EIP1967_IMPLEMENTATION_SLOT });
    if (slot !== undefined && size(slot) === 32 && hexToBigInt(slot) !== 0n) {
      const implementation = getAddress(slice(slot, 12));
      const implementationCode = ((await client.getCode({ address: implementation })) ?? "0x").toLowerCase();
      found = VERSIONS.filter((version) => implementationCode.includes(topicOf(version)));
      throughProxy = true;
    }
  }
  return { versions: found, throughProxy };
}
