import { getAddress, isAddress } from "viem";
import { z } from "zod";

/**
 * An EVM address: `0x` and 40 hex digits, kept exactly as written. Matching between the offer and the echoed
 * `accepted` compares strings, so the schema never re-cases; a mixed-case spelling must still be a valid
 * EIP-55 checksum, because a broken checksum is almost always a typo.
 */
export const AddressSchema = z
  .templateLiteral(["0x", z.string().regex(/^[0-9a-fA-F]{40}$/)], {
    error: "expected an address: 0x and 40 hex digits",
  })
  .refine((value) => isSingleCase(value) || isAddress(value, { strict: true }), {
    error: "mixed-case address with an invalid EIP-55 checksum",
  });

/** An EVM address as it travels on the wire (`0x${string}`, the same type as viem's `Address`). */
export type Address = z.infer<typeof AddressSchema>;

function isSingleCase(value: string): boolean {
  const digits = value.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase();
}

/**
 * An address the facilitator hands to viem (a payer it reads balances of and recovers signatures against),
 * normalised to its EIP-55 form at the edge. viem's strict checks refuse an all-uppercase spelling, which
 * {@link AddressSchema} accepts, so without this a valid payer written in capitals would fail deep in a
 * contract read instead of being the same payer.
 */
export const ChecksumAddressSchema = AddressSchema.transform((value) => getAddress(value));
