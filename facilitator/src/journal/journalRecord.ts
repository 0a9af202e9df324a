/**
 * The records of the crash-recovery journal (`settlement.journal`, JSON lines). Every line is one record;
 * the latest record of a challenge is its state. No burn secret is written: the payment id is the challenge
 * nonce, and the secret and tweak re-derive from it with the seed.
 */
import { AddressSchema, Bytes32Schema, DecimalStringSchema, type EncodedOffer, NetworkSchema, type Offer, ProtocolVersionSchema } from "@svc/scheme";
import type { Hex } from "viem";
import { z } from "zod";

const unixSeconds = z.number().int().nonnegative();
const path = z.enum(["permit", "self-transfer"]);

/**
 * The part of the offer a journal line keeps, as the journal reads it: the `Offer`'s fields in their string form
 * (the payer fee is stored apart, as `extraFee`). Its codec is `journaledChallenge.ts`.
 */
export type JournalOffer = EncodedOffer<
  Pick<Offer, "challengeNonce" | "chainId" | "asset" | "payTo" | "amount" | "expiresAt" | "helper" | "deadline" | "decimals">
>;

/** The offer as issued, enough to rebuild the challenge after a restart. */
export const JournaledChallengeSchema = z.object({
  challengeNonce: Bytes32Schema,
  // Records written before versions were recorded are v1: that was the only formula derived then.
  protocol: ProtocolVersionSchema.default("zerc20-v1"),
  network: NetworkSchema,
  chainId: z.number().int().positive(),
  asset: AddressSchema,
  payTo: AddressSchema,
  amount: DecimalStringSchema,
  fee: DecimalStringSchema,
  payout: DecimalStringSchema,
  extraFee: z.object({ amount: DecimalStringSchema, bps: z.number().int() }).optional(),
  helper: AddressSchema.optional(),
  deadline: unixSeconds.optional(),
  decimals: z.number().int().min(0).max(255).optional(),
  issuedAt: unixSeconds,
  expiresAt: unixSeconds,
}) satisfies z.ZodType<JournalOffer>;

/**
 * An issued offer, written (fsynced) before the offer is returned, so a payment against it still settles
 * after a restart: a self-transfer payer may already have sent funds to `payTo`. Match data only: the burn
 * secret re-derives from the seed and the nonce.
 */
export const ChallengeIssuedRecordSchema = z.object({
  type: z.literal("challenge"),
  challenge: JournaledChallengeSchema,
  at: unixSeconds,
});

/** Written (fsynced) before the facilitator broadcasts a permit burn, so a crash mid-settle is recoverable. */
export const IntentRecordSchema = z.object({
  type: z.literal("intent"),
  challenge: JournaledChallengeSchema,
  path,
  payloadDigest: Bytes32Schema,
  authorizationId: Bytes32Schema.optional(),
  /** Block height when the intent was written: where a search for the burn starts. */
  fromBlock: DecimalStringSchema,
  at: unixSeconds,
});

/**
 * The signed permit relay, journaled before it is broadcast: after a crash the very same transaction (same
 * nonce) is re-broadcast or proven dropped, and never a second one while the first may still land.
 */
export const RelayRecordSchema = z.object({
  type: z.literal("relay"),
  challengeNonce: Bytes32Schema,
  txHash: Bytes32Schema,
  rawTransaction: z.string().regex(/^0x[0-9a-fA-F]+$/),
  at: unixSeconds,
});

/**
 * The permit intent was let go because its relay provably never burned (refused by the node, dropped behind
 * a later nonce, or reverted): the challenge is free again for a payload that can settle.
 */
export const IntentReleasedRecordSchema = z.object({
  type: z.literal("intent_released"),
  challengeNonce: Bytes32Schema,
  reason: z.string(),
  at: unixSeconds,
});

/** The burn is on-chain and the payment was accepted; finalization is pending. */
export const AcceptedRecordSchema = z.object({
  type: z.literal("accepted"),
  challenge: JournaledChallengeSchema,
  path,
  payloadDigest: Bytes32Schema,
  payer: AddressSchema.optional(),
  burnTxHash: Bytes32Schema,
  burnBlockNumber: DecimalStringSchema,
  /**
   * A permit payment's PermitBurner call (signed by the payer, to `challenge.helper`): relayed again, while
   * the authorization is valid, when a reorg removes the burn. Absent for self-transfers and older journals.
   */
  relayCalldata: z
    .string()
    .regex(/^0x[0-9a-fA-F]*$/)
    .optional(),
  /** A permit payment's burn authorization: how the replay ledger finds the burn wherever it executed. */
  authorizationId: Bytes32Schema.optional(),
  /** The configuration the payment was accepted under: it is only finalized under the same one. */
  token: AddressSchema,
  verifier: AddressSchema,
  treasury: AddressSchema,
  at: unixSeconds,
});

/** The proof-gated mint landed. */
export const FinalizedRecordSchema = z.object({
  type: z.literal("finalized"),
  challengeNonce: Bytes32Schema,
  mintTxHash: Bytes32Schema,
  at: unixSeconds,
});

/**
 * An accepted payment's burn, removed by a reorg, is on its way to the chain again under a new transaction:
 * relayed again by the facilitator (`rawTransaction`, journaled before it is broadcast) or found executed
 * elsewhere (the replay ledger's `BurnExecuted`). The payment stays accepted and follows `burnTxHash`.
 */
export const BurnReorgedRecordSchema = z.object({
  type: z.literal("burn_reorged"),
  challengeNonce: Bytes32Schema,
  burnTxHash: Bytes32Schema,
  rawTransaction: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/)
    .optional(),
  at: unixSeconds,
});

/**
 * A finalized payment's mint was removed by a reorg: the payment is accepted again, and the next finalize
 * pass mints it (or finds it minted: the verifier's `totalTeleported` decides, so it is never minted twice).
 */
export const MintReorgedRecordSchema = z.object({
  type: z.literal("mint_reorged"),
  challengeNonce: Bytes32Schema,
  mintTxHash: Bytes32Schema,
  at: unixSeconds,
});

/** The entry failed for good (for example its chain evidence vanished); nothing was minted. */
export const FailedRecordSchema = z.object({
  type: z.literal("failed"),
  challengeNonce: Bytes32Schema,
  /** A finalize reason code (`finalize/finalizeReasons.ts`); older journals hold a sentence, kept as-is. */
  reason: z.string(),
  at: unixSeconds,
});

/** A burn that landed after its offer expired: refused, kept for the operator (recovery is manual). */
export const LateBurnRecordSchema = z.object({
  type: z.literal("late_burn"),
  challenge: JournaledChallengeSchema,
  path,
  burnTxHash: Bytes32Schema,
  value: DecimalStringSchema,
  blockTimestamp: unixSeconds,
  at: unixSeconds,
});

/**
 * Custodial fee sweep of one payment, signed but maybe not yet broadcast, as older versions wrote it (one
 * sweep per payment); still read, so such a sweep is re-broadcast unchanged. New sweeps are `fee_sweep_batch`.
 */
export const FeeSweepRecordSchema = z.object({
  type: z.literal("fee_sweep"),
  challengeNonce: Bytes32Schema,
  txHash: Bytes32Schema,
  rawTransaction: z.string().regex(/^0x[0-9a-fA-F]+$/),
  amount: DecimalStringSchema,
  at: unixSeconds,
});

/**
 * One aggregated custodial fee sweep: a single treasury transfer of the summed fees of every payment it
 * covers, signed and journaled (with the list of covered payments) before it is broadcast. After a crash the
 * very same transaction is re-broadcast, and a payment it covers is never part of another sweep.
 */
export const FeeSweepBatchRecordSchema = z.object({
  type: z.literal("fee_sweep_batch"),
  challengeNonces: z.array(Bytes32Schema).min(1),
  txHash: Bytes32Schema,
  rawTransaction: z.string().regex(/^0x[0-9a-fA-F]+$/),
  amount: DecimalStringSchema,
  at: unixSeconds,
});

/** The fee of a finalized entry reached its recipient (custodial sweep or splitter distribution). */
export const FeeSettledRecordSchema = z.object({
  type: z.literal("fee_settled"),
  challengeNonce: Bytes32Schema,
  txHash: Bytes32Schema.optional(),
  amount: DecimalStringSchema,
  at: unixSeconds,
});

/** Any journal line; unknown keys are kept so a newer version's additions survive a rewrite. */
export const JournalRecordSchema = z.discriminatedUnion("type", [
  ChallengeIssuedRecordSchema.loose(),
  IntentRecordSchema.loose(),
  RelayRecordSchema.loose(),
  IntentReleasedRecordSchema.loose(),
  AcceptedRecordSchema.loose(),
  FinalizedRecordSchema.loose(),
  FailedRecordSchema.loose(),
  BurnReorgedRecordSchema.loose(),
  MintReorgedRecordSchema.loose(),
  LateBurnRecordSchema.loose(),
  FeeSweepRecordSchema.loose(),
  FeeSweepBatchRecordSchema.loose(),
  FeeSettledRecordSchema.loose(),
]);

/** One journal line. */
export type JournalRecord = z.infer<typeof JournalRecordSchema>;
/** The `challenge` part of intent, accepted and late-burn records. */
export type JournaledChallenge = z.infer<typeof JournaledChallengeSchema>;
/** An issued-challenge line. */
export type ChallengeIssuedRecord = z.infer<typeof ChallengeIssuedRecordSchema>;
/** A permit-relay line. */
export type RelayRecord = z.infer<typeof RelayRecordSchema>;
/** An intent line. */
export type IntentRecord = z.infer<typeof IntentRecordSchema>;
/** An accepted line. */
export type AcceptedRecord = z.infer<typeof AcceptedRecordSchema>;
/** A fee-sweep line. */
export type FeeSweepRecord = z.infer<typeof FeeSweepRecordSchema>;
/** An aggregated fee-sweep line. */
export type FeeSweepBatchRecord = z.infer<typeof FeeSweepBatchRecordSchema>;
/** A late-burn line. */
export type LateBurnRecord = z.infer<typeof LateBurnRecordSchema>;

/**
 * The payment a record belongs to: its `challengeNonce`, or its challenge's. An aggregated fee sweep
 * (`fee_sweep_batch`) belongs to several and names none here (its `challengeNonces` lists them).
 */
export function paymentNonceOf(record: JournalRecord): Hex | undefined {
  switch (record.type) {
    case "challenge":
    case "intent":
    case "accepted":
    case "late_burn":
      return record.challenge.challengeNonce as Hex;
    case "fee_sweep_batch":
      return undefined;
    default:
      return record.challengeNonce as Hex;
  }
}
