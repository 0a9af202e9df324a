/**
 * The withdrawal witness of one payment: everything the protocol's own tools need to withdraw a burn by hand
 * when this facilitator cannot (its prover is gone, its chain access broken, the operator moves elsewhere).
 * It holds the burn secret: whoever has it can mint the payment to the treasury (and only there, since the
 * general recipient is fixed), and it links the burn to its mint. Served only behind the admin token, printed
 * only to standard output, never logged.
 */
import { AddressSchema, addressToRecipient, Bytes32Schema, DecimalStringSchema, ProtocolVersionSchema } from "@svc/scheme";
import { numberToHex } from "viem";
import { z } from "zod";
import type { BurnSecret } from "../challenges/challengeRecord.js";
import type { SettlementEntry } from "../settlement/settlementBook.js";

/** The witness as `GET /admin/withdrawal-witness/:challengeNonce` serves it. */
export const WithdrawalWitnessSchema = z.object({
  protocol: ProtocolVersionSchema,
  chain_id: z.int().positive(),
  token: AddressSchema,
  verifier: AddressSchema,
  challenge_nonce: Bytes32Schema,
  state: z.enum(["accepted", "finalized", "failed"]),
  amount: DecimalStringSchema,
  burn_tx_hash: Bytes32Schema,
  burn_block_number: DecimalStringSchema,
  burn_address: AddressSchema,
  general_recipient: z.object({ chain_id: z.int().positive(), recipient: Bytes32Schema, tweak: Bytes32Schema }),
  recipient_hash: Bytes32Schema,
  secret: Bytes32Schema,
  mint_tx_hash: Bytes32Schema.optional(),
});

/** One payment's withdrawal witness. */
export type WithdrawalWitness = z.infer<typeof WithdrawalWitnessSchema>;

/** Builds the witness of `entry` (accepted under its own token, verifier and treasury) from its re-derived burn secret. */
export function buildWithdrawalWitness(entry: SettlementEntry, burn: BurnSecret): WithdrawalWitness {
  const recipient = addressToRecipient(entry.treasury);
  return {
    protocol: entry.challenge.protocol,
    chain_id: entry.challenge.chainId,
    token: entry.token,
    verifier: entry.verifier,
    challenge_nonce: entry.challenge.challengeNonce,
    state: entry.state,
    amount: entry.challenge.amount.toString(),
    burn_tx_hash: entry.burnTxHash,
    burn_block_number: entry.burnBlockNumber,
    burn_address: burn.burnAddress,
    general_recipient: { chain_id: entry.challenge.chainId, recipient, tweak: burn.tweak },
    recipient_hash: burn.recipientHash,
    secret: numberToHex(burn.secret, { size: 32 }),
    ...(entry.mintTxHash === undefined ? {} : { mint_tx_hash: entry.mintTxHash }),
  };
}
