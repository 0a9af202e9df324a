/**
 * The general recipient hash: the value a burn address commits to and the verifier's `recipientHash`.
 * Byte 0 is forced to `0x01` so the value is always below the BN254 field modulus and can be a circuit input.
 */
import { encodePacked, hexToBigInt, pad, sha256, type Address, type Hex } from "viem";

/** `(chainId, recipient, tweak)`: where a teleport mint goes, salted by a per-burn tweak. */
export type GeneralRecipient = { chainId: bigint; recipient: Hex; tweak: Hex };

/** Left-pads an address to the 32-byte `recipient` field of a {@link GeneralRecipient}. */
export function addressToRecipient(address: Address): Hex {
  return pad(address, { size: 32 });
}

/** `sha256(be64(chainId) || recipient || tweak)` with byte 0 replaced by `0x01`, as 32-byte hex. */
export function generalRecipientHash(gr: GeneralRecipient): Hex {
  const digest = sha256(encodePacked(["uint64", "bytes32", "bytes32"], [gr.chainId, gr.recipient, gr.tweak]));
  return `0x01${digest.slice(4)}`;
}

/** The recipient hash as the field element the burn-address derivation hashes. */
export function generalRecipientField(gr: GeneralRecipient): bigint {
  return hexToBigInt(generalRecipientHash(gr));
}
