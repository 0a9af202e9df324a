/** The challenge domain: one-time burn addresses, the open-challenge table and the `POST /challenge` issuer. */
export {
  BurnAddressPool,
  DEFAULT_BURN_ADDRESS_POOL_SIZE,
  DEFAULT_BURN_ADDRESS_TAKE_TIMEOUT_MS,
  type BurnAddressPoolParameters,
  type BurnAddressPoolStats,
  type BurnAddressSource,
} from "./burnAddressPool.js";
export type { BurnSecret, ChallengeRecord } from "./challengeRecord.js";
export {
  ChallengeStore,
  DEFAULT_MAX_RETAINED_EXPIRED,
  type ChallengeCounts,
  type ChallengeLookup,
  type ChallengeReservation,
  type ChallengeStoreParameters,
} from "./challengeStore.js";
export {
  createChallengeIssuer,
  type ChallengeIssuer,
  type CreateChallengeIssuerParameters,
  type IssueChallengeReturnType,
} from "./createChallengeIssuer.js";
export { reopenBurnSecret, reopenBurnSecretOffThread } from "./reopenBurnSecret.js";
