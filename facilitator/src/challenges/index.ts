/**
 * The challenge domain: fee quotes, burn-seed and payment-secret derivation, one-time burn addresses, the
 * open-challenge table and the `POST /challenge` issuer.
 */
export {
  BurnAddressPool,
  DEFAULT_BURN_ADDRESS_POOL_SIZE,
  DEFAULT_BURN_ADDRESS_TAKE_TIMEOUT_MS,
  type BurnAddressPoolParameters,
  type BurnAddressPoolStats,
  type BurnAddressSource,
} from "./burnAddressPool.js";
export { BURN_SEED_TAG, deriveBurnSeed } from "./burnSeed.js";
export type { BurnSecret, ChallengeRecord } from "./challengeRecord.js";
export {
  ChallengeStore,
  DEFAULT_MAX_RETAINED_EXPIRED,
  type ChallengeCounts,
  type StoredChallenge,
  type ChallengeReservation,
  type ChallengeStoreParameters,
} from "./challengeStore.js";
export {
  createChallengeIssuer,
  type ChallengeIssuer,
  type CreateChallengeIssuerParameters,
  type IssueChallengeReturnType,
} from "./createChallengeIssuer.js";
export {
  derivePaymentSecretBase,
  derivePaymentTweak,
  PAYMENT_SECRET_TAG,
  PAYMENT_TWEAK_TAG,
} from "./paymentSecrets.js";
export { computeFee, quote, type FeeRate, type PricedOffer } from "./quote.js";
export { reopenBurnSecret, reopenBurnSecretOffThread } from "./reopenBurnSecret.js";
