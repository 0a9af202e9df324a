import type { PaymentPayloadContext, PaymentPayloadResult, SchemeNetworkClient } from "@x402/core/types";

import { InvalidOfferError, SpendCapExceededError } from "./errors.js";
import { describeIssues } from "../wire/describeIssues.js";
import { fromOfferRequirements, type Offer } from "../wire/offer.js";
import { PaymentRequirementsSchema } from "../wire/paymentRequirements.js";
import { SCHEME, X402_VERSION } from "../wire/scheme.js";
import { createPermitPayment } from "./createPermitPayment.js";
import { createSelfTransferPayment } from "./createSelfTransferPayment.js";
import type { PayerClients } from "./payerClients.js";
import type { OnPaymentPhase } from "./paymentPhase.js";

/** How the payer pays: sign only (`permit`, facilitator pays gas) or burn itself (`self-transfer`). */
export type PaymentMode = "permit" | "self-transfer";

/** Options of `SvcZerc20SchemeClient`. */
export type SvcZerc20SchemeClientOptions = PayerClients & {
  /** Payment path; a permit client never falls back to a self-transfer. */
  mode: PaymentMode;
  /** Self-transfer only: how long to wait for the burn's receipt. */
  receiptTimeoutMs?: number | undefined;
  /** Clock in milliseconds; injected so tests can pin it. */
  now?: (() => number) | undefined;
  /** Progress callback for UIs and ledgers. */
  onPhase?: OnPaymentPhase | undefined;
};

/**
 * The svc-zerc20 payer plugin for `@x402/core`'s `x402Client`: creates the scheme payload for one offer,
 * in permit or self-transfer mode, with the injected viem clients as its only I/O. Core echoes the offer as
 * `accepted` itself; this class returns only `{ x402Version, payload }`.
 *
 * @example
 * const client = new x402Client().register("eip155:31337", new SvcZerc20SchemeClient({ mode: "permit", publicClient, walletClient }));
 */
export class SvcZerc20SchemeClient implements SchemeNetworkClient {
  /** The scheme identifier core routes offers by. */
  readonly scheme = SCHEME;
  private readonly options: SvcZerc20SchemeClientOptions;

  constructor(options: SvcZerc20SchemeClientOptions) {
    this.options = options;
  }

  /** The configured payment path. */
  get mode(): PaymentMode {
    return this.options.mode;
  }

  /**
   * Builds the payload for `paymentRequirements`. Throws `InvalidOfferError` for anything but a valid v2
   * svc-zerc20 offer and `SpendCapExceededError` when core resolved a cap below the quoted amount.
   */
  async createPaymentPayload(x402Version: number, paymentRequirements: unknown, context?: PaymentPayloadContext): Promise<PaymentPayloadResult> {
    if (x402Version !== X402_VERSION) {
      throw new InvalidOfferError({ details: `x402Version ${x402Version} is not ${X402_VERSION}` });
    }
    const offer = parseOffer(paymentRequirements);
    const cap = context?.maxAmountPerPayment;
    if (cap !== undefined && offer.amount > BigInt(cap)) {
      throw new SpendCapExceededError({ amount: offer.amount, cap });
    }
    const { mode, ...rest } = this.options;
    const payload = mode === "permit" ? await createPermitPayment({ ...rest, offer }) : await createSelfTransferPayment({ ...rest, offer });
    return { x402Version: X402_VERSION, payload };
  }
}

// The plugin's edge: the requirements core hands over are parsed and decoded into the offer once, here.
function parseOffer(value: unknown): Offer {
  const parsed = PaymentRequirementsSchema.safeParse(value);
  if (!parsed.success) throw new InvalidOfferError({ details: describeIssues(parsed.error) });
  return fromOfferRequirements(parsed.data);
}
