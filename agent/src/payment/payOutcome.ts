import type { Network, Offer } from "@svc/scheme";

import type { DeclineReason } from "../policy/declineReasons.js";
import type { ResourceResponse } from "./resourceResponse.js";

/** The offer a payment concerned, as an outcome reports it: what was (or would have been) paid, on which network. */
export type OutcomeOffer = Pick<Offer, "asset" | "amount"> & { network: Network };

/**
 * How `pay` or `resend` ended, as data; the CLI maps each kind to its exit code. `unknown` means the
 * payment may have gone through: the spend stays reserved and `resend <id>` re-sends the stored bytes.
 */
export type PayOutcome =
  | { kind: "paid"; id: string; offer: OutcomeOffer; transaction: string | undefined; resource: ResourceResponse }
  | { kind: "not-required"; resource: ResourceResponse }
  /** The resource answered with a non-2xx status other than 402: nothing was offered or paid. */
  | { kind: "http-error"; status: number; message: string; resource: ResourceResponse }
  | { kind: "declined"; reason: DeclineReason; message: string; id?: string | undefined; offer?: OutcomeOffer | undefined }
  | { kind: "approval-denied"; id: string; result: "denied" | "timed-out"; message: string; offer: OutcomeOffer }
  | {
      kind: "failed";
      message: string;
      id?: string | undefined;
      offer?: OutcomeOffer | undefined;
      errorReason?: string | undefined;
      resource?: ResourceResponse | undefined;
    }
  | { kind: "unknown"; id: string; message: string; offer: OutcomeOffer; errorReason?: string | undefined };
