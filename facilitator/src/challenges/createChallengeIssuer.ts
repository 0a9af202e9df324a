/**
 * `POST /challenge` without HTTP: prices a list price, takes a fresh burn address and records the challenge.
 *
 * Order matters: profile, then price, then the cap, and only then the pool, so a refused request never
 * consumes a derived address (each costs about a second of worker CPU). The issuer also re-derives the
 * taken entry's tweak and recipient hash from the seed and the configured treasury (microseconds): whatever
 * the pool was built with, an offer can only ever commit its mint to `settlement.treasury`.
 */
import { toChallengeOffer, type ChallengeOffer } from "@svc/scheme";
import { getAddress, type Hex } from "viem";

import { capabilitiesOf } from "../config/capabilities.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import { type PricedOffer, quote } from "./quote.js";
import { QuoteOutOfRangeError } from "./errors.js";
import { BurnAddressUnavailableError, BurnAddressVerificationError, ChallengeNotRecordedError, ProfileDisabledError } from "./errors.js";
import type { BurnAddressSource, TakenBurn } from "./burnAddressPool.js";
import { burnCommitment } from "./burnSecretInputs.js";
import type { BurnSecret, ChallengeRecord } from "./challengeRecord.js";
import type { ChallengeStore } from "./challengeStore.js";

/** What an issuer reads and talks to. */
export type CreateChallengeIssuerParameters = {
  /** The validated configuration; `settlement.treasury` is the only recipient an offer may commit to. */
  config: Pick<FacilitatorConfig, "profile" | "network" | "settlement" | "fee">;
  /** The burn-address seed the pool derives with, used to re-check every address taken from it. */
  seed: Hex;
  pool: BurnAddressSource;
  store: Pick<ChallengeStore, "reserve">;
  /** Whether the token implements EIP-2612 permit (read at start); without it no offer carries `helper`. Default true. */
  tokenHasPermit?: boolean | undefined;
  /** The token's decimals (read at start), shown in every offer as `extra.decimals`; unset leaves them out. */
  tokenDecimals?: number | undefined;
  /**
   * Makes the issued challenge durable (the journal, fsynced) before its offer is returned: a payer may pay
   * `payTo` at once, and that payment must still settle after a restart.
   */
  record?: ((record: ChallengeRecord) => Promise<void>) | undefined;
  /** Unix seconds; defaults to the wall clock. */
  now?: (() => number) | undefined;
};

/** An issued challenge: the wire offer and the private record behind it (with its burn secret, as issued). */
export type IssueChallengeReturnType = { offer: ChallengeOffer; record: ChallengeRecord & { burn: BurnSecret } };

/** Issues challenges for list prices. */
export type ChallengeIssuer = {
  /**
   * Issues one offer. Throws `ProfileDisabledError` (403), `QuoteOutOfRangeError` (400),
   * `ChallengeCapacityError` (503), `BurnAddressUnavailableError` (503) or `ChallengeNotRecordedError` (503).
   */
  issue(listPrice: bigint): Promise<IssueChallengeReturnType>;
};

/**
 * Builds the challenge issuer of `POST /challenge`.
 *
 * @example
 * const issuer = createChallengeIssuer({ config, seed, pool, store });
 * const { offer } = await issuer.issue(1000n); // offer.payTo is a fresh burn address
 */
export function createChallengeIssuer(parameters: CreateChallengeIssuerParameters): ChallengeIssuer {
  const { config, seed, pool, store } = parameters;
  const now = parameters.now ?? (() => Math.floor(Date.now() / 1000));
  const chainId = config.network.chain_id;
  const asset = getAddress(config.network.token);
  const treasury = getAddress(config.settlement.treasury);
  const permitBurner = config.settlement.permit_burner;
  // A permit burner in front of a token without permit could never burn: such offers are self-transfer only.
  const helper = permitBurner === undefined || parameters.tokenHasPermit === false ? undefined : getAddress(permitBurner);
  const { issuesOffers } = capabilitiesOf(config);

  return {
    async issue(listPrice) {
      if (!issuesOffers) throw new ProfileDisabledError(config.profile);
      const priced = quote(listPrice, config.fee);
      // An offer for nothing would let a zero-value transfer (which still emits IndexedTransfer) pass as a
      // payment, and there would be nothing to mint: a free resource needs no offer.
      if (priced.amount === 0n) throw new QuoteOutOfRangeError({ reason: "the quoted amount is zero" });
      const slot = store.reserve();
      let taken: TakenBurn;
      try {
        taken = await pool.takeHeld();
      } catch (error) {
        slot.release();
        throw error;
      }
      try {
        const record = recordFor(taken.burn, priced);
        await parameters.record?.(record).catch((cause: unknown) => {
          throw new ChallengeNotRecordedError({ cause });
        });
        slot.add(record);
        return { offer: toChallengeOffer(record), record };
      } catch (error) {
        slot.release();
        throw error;
      } finally {
        // The pool's next stock release (its own fsync) and refill start once the challenge is journaled.
        taken.resume();
      }
    },
  };

  function recordFor(burn: BurnSecret, priced: PricedOffer): ChallengeRecord & { burn: BurnSecret } {
    assertCommitsToTreasury(burn);
    // Timed after the take: the lifetime starts when the offer leaves, not when the request arrived.
    const issuedAt = now();
    const expiresAt = issuedAt + config.settlement.challenge_ttl_seconds;
    // deadline = expiresAt: PermitBurner refuses a burn past the signed deadline, so a gasless burn can
    // never land after the offer expired; any later deadline would let a late burn through on-chain.
    const deadline = helper === undefined ? undefined : expiresAt;
    return {
      // The nonce is the burn's payment id: with the seed it re-derives the burn secret, so a burn whose
      // offer was lost in a restart can still be recovered by the operator. The id is 32 random bytes and
      // reveals nothing without the seed.
      challengeNonce: burn.paymentId,
      protocol: config.network.protocol,
      decimals: parameters.tokenDecimals,
      chainId,
      asset,
      payTo: burn.burnAddress,
      amount: priced.amount,
      expiresAt,
      helper,
      deadline,
      fee: priced.extraFee,
      quote: priced,
      issuedAt,
      burn,
    };
  }

  function assertCommitsToTreasury(burn: BurnSecret): void {
    const expected = burnCommitment(seed, { chainId, treasury }, burn.paymentId);
    if (expected.tweak !== burn.tweak) {
      throw new BurnAddressUnavailableError({ cause: new BurnAddressVerificationError("the tweak is not the seed's") });
    }
    if (expected.recipientHash !== burn.recipientHash) {
      const cause = new BurnAddressVerificationError("the recipient hash does not commit to settlement.treasury");
      throw new BurnAddressUnavailableError({ cause });
    }
  }
}
