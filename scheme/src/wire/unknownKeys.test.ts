/**
 * The protocol is additive-only: every shape must accept a key it does not know and keep it, at every level,
 * so an echoed `accepted` still matches the provider's offer after passing through our schemas.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";

import {
  buildChallengeOffer,
  buildExtra,
  buildFacilitatorRequest,
  buildPaymentPayload,
  buildPaymentRequired,
  buildPermitPayload,
  buildRequirements,
  buildSelfTransferPayload,
  buildSettleResponse,
  buildSupportedResponse,
  buildVerifyResponse,
} from "../testing/builders.js";
import { ChallengeOfferSchema } from "./challengeOffer.js";
import { ChallengeRequestSchema } from "./challengeRequest.js";
import { classifyPayload } from "./classifyPayload.js";
import { FacilitatorRequestSchema } from "./facilitatorRequest.js";
import type { OtherPaymentRequirements } from "./otherPaymentRequirements.js";
import { PaymentPayloadSchema } from "./paymentPayload.js";
import { PaymentRequiredSchema } from "./paymentRequired.js";
import { PaymentRequirementsSchema } from "./paymentRequirements.js";
import { PermitPayloadSchema } from "./permitPayload.js";
import { SelfTransferPayloadSchema } from "./selfTransferPayload.js";
import { SettleResponseSchema } from "./settleResponse.js";
import { SubethaExtraSchema } from "./subethaExtra.js";
import { SupportedResponseSchema } from "./supportedResponse.js";
import { VerifyResponseSchema } from "./verifyResponse.js";

const FUTURE_VALUE = { nested: [1, "two", null], flag: true };

/** A deep copy of `value` with an unknown key added to the object at `path`. */
function withUnknownKey(value: unknown, path: readonly (string | number)[]): unknown {
  const copy = structuredClone(value);
  let target: unknown = copy;
  for (const key of path) {
    if (typeof target !== "object" || target === null) throw new Error(`no object at ${path.join(".")}`);
    target = Reflect.get(target, key);
  }
  if (typeof target !== "object" || target === null) throw new Error(`no object at ${path.join(".")}`);
  Reflect.set(target, "futureField", FUTURE_VALUE);
  return copy;
}

const exactOffer: OtherPaymentRequirements = {
  scheme: "exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "10000",
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  maxTimeoutSeconds: 60,
  extra: {},
};
const extraWithFee = buildExtra({ fee: { amount: "10", bps: 5 } });
const requirements = buildRequirements({ extra: extraWithFee });

const cases: [string, z.ZodType, unknown, (string | number)[][]][] = [
  ["SubethaExtra", SubethaExtraSchema, extraWithFee, [[], ["fee"]]],
  ["PaymentRequirements", PaymentRequirementsSchema, requirements, [[], ["extra"], ["extra", "fee"]]],
  [
    "PaymentRequired",
    PaymentRequiredSchema,
    buildPaymentRequired({ accepts: [requirements, exactOffer] }),
    [[], ["resource"], ["accepts", 0], ["accepts", 0, "extra"], ["accepts", 0, "extra", "fee"], ["accepts", 1]],
  ],
  [
    "PaymentPayload",
    PaymentPayloadSchema,
    buildPaymentPayload({ accepted: requirements, payload: buildPermitPayload() }),
    [[], ["accepted"], ["accepted", "extra"], ["accepted", "extra", "fee"], ["resource"], ["payload"], ["payload", "permit"]],
  ],
  ["PermitPayload", PermitPayloadSchema, buildPermitPayload(), [[], ["permit"]]],
  ["SelfTransferPayload", SelfTransferPayloadSchema, buildSelfTransferPayload(), [[]]],
  ["VerifyResponse", VerifyResponseSchema, buildVerifyResponse(), [[]]],
  ["SettleResponse", SettleResponseSchema, buildSettleResponse(), [[], ["extra"]]],
  [
    "FacilitatorRequest",
    FacilitatorRequestSchema,
    buildFacilitatorRequest(),
    [[], ["paymentPayload"], ["paymentPayload", "accepted", "extra"], ["paymentRequirements"], ["paymentRequirements", "extra"]],
  ],
  ["ChallengeRequest", ChallengeRequestSchema, { amount: "1" }, [[]]],
  ["ChallengeOffer", ChallengeOfferSchema, buildChallengeOffer({ fee: { amount: "10", bps: 5 } }), [[], ["fee"]]],
  ["SupportedResponse", SupportedResponseSchema, buildSupportedResponse(), [[], ["kinds", 0]]],
];

describe.each(cases)("%s", (_name, schema, valid, paths) => {
  it.each(paths.map((path) => [path.length > 0 ? path.join(".") : "(root)", path] as const))("accepts and keeps an unknown key at %s", (_where, path) => {
    const value = withUnknownKey(valid, path);
    expect(schema.parse(value)).toEqual(value);
  });
});

describe("classifyPayload", () => {
  it.each([
    ["permit", buildPermitPayload(), [[], ["permit"]]],
    ["self-transfer", buildSelfTransferPayload(), [[]]],
  ] as const)("keeps unknown keys of a %s payload", (kind, payload, paths) => {
    for (const path of paths) {
      const value = withUnknownKey(payload, path);
      expect(classifyPayload(value)).toEqual({ kind, payload: value });
    }
  });
});
