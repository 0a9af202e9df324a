/**
 * The offer: one payment the facilitator issued, as plain typed data (amounts as bigints), and its codecs to
 * every string form it travels in. The facilitator builds it when it issues a challenge, journals it, and
 * checks payments against it; the provider plugin decodes the `POST /challenge` answer into it and encodes its
 * 402 from it. Optional keys are written only when present, here and nowhere else, so a wire offer's JSON and
 * its key set agree and the payer's echo deep-equals the `extra` it was shown.
 */
import type { Address, Hex } from "viem";

import type { ChallengeOffer } from "./challengeOffer.js";
import type { DecimalString } from "./decimalString.js";
import type { Fee } from "./fee.js";
import { parseNetwork, toNetwork } from "./network.js";
import type { PaymentRequirements } from "./paymentRequirements.js";
import { SCHEME } from "./scheme.js";
import type { SubethaExtra } from "./subethaExtra.js";

/** The payer-charged fee already included in an offer's `amount`. */
export type OfferFee = {
  /** Fee in base units. */
  amount: bigint;
  /** Fee rate in basis points. */
  bps: number;
};

/** One svc-zerc20 offer, as issued. */
export type Offer = {
  /** Server nonce binding the offer to exactly one payment (`extra.challengeNonce`). */
  challengeNonce: Hex;
  /** The chain the offer is for; its CAIP-2 form is the requirements' `network`. */
  chainId: number;
  /** The zERC20 token (`asset` in requirements, `token` in the `/challenge` answer). */
  asset: Address;
  /** The one-time burn address. */
  payTo: Address;
  /** Quoted amount in base units (list price plus any payer-charged fee). */
  amount: bigint;
  /** Unix seconds; the offer is refused after it. */
  expiresAt: number;
  /** PermitBurner address; present exactly when the gasless permit path is offered. */
  helper: Address | undefined;
  /** Unix seconds bounding the permit and burn-authorization signatures; never after `expiresAt`. */
  deadline: number | undefined;
  /** Set only under payer-charged fees. */
  fee: OfferFee | undefined;
  /** The token's decimals as the facilitator read them (`extra.decimals`), when it did. */
  decimals?: number | undefined;
};

type Encoded<V> = V extends bigint ? DecimalString : V;

/**
 * A projection of the offer in a string form (JSON, a journal line, a history record): each bigint field as its
 * decimal string, a field the offer may leave `undefined` as an optional key, every other field as the offer
 * types it. Readers name their projection with it, e.g. `EncodedOffer<Pick<Offer, "challengeNonce" | "amount">>`,
 * so a change to `Offer` reaches every stored form.
 */
export type EncodedOffer<T extends Partial<Offer>> = { [K in keyof T as undefined extends T[K] ? never : K]: Encoded<T[K]> } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Encoded<Exclude<T[K], undefined>>;
};

/** The fee's wire form (a decimal string amount). */
export function encodeOfferFee(fee: OfferFee): Fee {
  return { amount: fee.amount.toString(), bps: fee.bps };
}

/** The fee from its wire form. */
export function decodeOfferFee(fee: Fee): OfferFee {
  return { amount: BigInt(fee.amount), bps: fee.bps };
}

/** The offer's `extra` (`SubethaExtra`): only the fields the spec defines, optional ones only when present. */
export function offerExtra(offer: Offer): SubethaExtra {
  return {
    challengeNonce: offer.challengeNonce,
    expiresAt: offer.expiresAt,
    ...(offer.helper === undefined ? {} : { helper: offer.helper }),
    ...(offer.deadline === undefined ? {} : { deadline: offer.deadline }),
    ...(offer.fee === undefined ? {} : { fee: encodeOfferFee(offer.fee) }),
    ...(offer.decimals === undefined ? {} : { decimals: offer.decimals }),
  };
}

/**
 * The x402 `PaymentRequirements` of the offer. `maxTimeoutSeconds` is the caller's: the provider fixes it once
 * at issue, the facilitator derives it from its clock.
 *
 * @example
 * const requirements = offerRequirements(offer, Math.max(1, offer.expiresAt - now));
 */
export function offerRequirements(offer: Offer, maxTimeoutSeconds: number): PaymentRequirements {
  return {
    scheme: SCHEME,
    network: toNetwork(offer.chainId),
    asset: offer.asset,
    amount: offer.amount.toString(),
    payTo: offer.payTo,
    maxTimeoutSeconds,
    extra: offerExtra(offer),
  };
}

/**
 * The offer from parsed requirements (the inverse of {@link offerRequirements}): how a payer reads the offer
 * it was shown, once, at its edge. Keys neither the requirements nor `extra` define are dropped.
 */
export function fromOfferRequirements(requirements: PaymentRequirements): Offer {
  const { extra } = requirements;
  return {
    challengeNonce: extra.challengeNonce,
    chainId: parseNetwork(requirements.network),
    asset: requirements.asset,
    payTo: requirements.payTo,
    amount: BigInt(requirements.amount),
    expiresAt: extra.expiresAt,
    helper: extra.helper,
    deadline: extra.deadline,
    fee: extra.fee === undefined ? undefined : decodeOfferFee(extra.fee),
    decimals: extra.decimals,
  };
}

/** The offer as `POST /challenge` answers it. */
export function toChallengeOffer(offer: Offer): ChallengeOffer {
  return { payTo: offer.payTo, amount: offer.amount.toString(), token: offer.asset, chainId: offer.chainId, ...offerExtra(offer) };
}

/** The offer from a parsed `POST /challenge` answer (keys the spec does not define are dropped). */
export function fromChallengeOffer(wire: ChallengeOffer): Offer {
  return {
    challengeNonce: wire.challengeNonce,
    chainId: wire.chainId,
    asset: wire.token,
    payTo: wire.payTo,
    amount: BigInt(wire.amount),
    expiresAt: wire.expiresAt,
    helper: wire.helper,
    deadline: wire.deadline,
    fee: wire.fee === undefined ? undefined : decodeOfferFee(wire.fee),
    decimals: wire.decimals,
  };
}
