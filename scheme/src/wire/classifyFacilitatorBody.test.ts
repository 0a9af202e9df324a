import { describe, expect, it } from "vitest";

import { MALFORMED_PAYLOAD, UNSUPPORTED_SCHEME } from "../reasons/reasonCodes.js";
import { buildFacilitatorRequest, buildPaymentPayload, buildPermitPayload, buildRequirements, buildSelfTransferPayload } from "../testing/builders.js";
import { classifyFacilitatorBody } from "./classifyFacilitatorBody.js";

describe("classifyFacilitatorBody", () => {
  it("reads an x402 body with a self-transfer payload", () => {
    const request = buildFacilitatorRequest();
    expect(classifyFacilitatorBody(request)).toEqual({
      kind: "x402",
      request,
      payment: { kind: "self-transfer", payload: buildSelfTransferPayload() },
    });
  });

  it("reads an x402 body with a permit payload", () => {
    const request = buildFacilitatorRequest({ paymentPayload: buildPaymentPayload({ payload: buildPermitPayload() }) });
    expect(classifyFacilitatorBody(request)).toMatchObject({ kind: "x402", payment: { kind: "permit" } });
  });

  it("reads the legacy self-transfer body", () => {
    expect(classifyFacilitatorBody(buildSelfTransferPayload())).toEqual({
      kind: "legacy",
      payment: { kind: "self-transfer", payload: buildSelfTransferPayload() },
    });
  });

  it("reads the legacy permit body", () => {
    expect(classifyFacilitatorBody(buildPermitPayload())).toMatchObject({ kind: "legacy", payment: { kind: "permit" } });
  });

  it("applies the discrimination rule to legacy bodies too", () => {
    const { permit: _dropped, ...partial } = { ...buildPermitPayload(), ...buildSelfTransferPayload() };
    expect(classifyFacilitatorBody(partial)).toMatchObject({ kind: "rejected", reason: MALFORMED_PAYLOAD });
  });

  it("rejects a partial triple inside an x402 body", () => {
    const { payer: _dropped, ...partial } = { ...buildPermitPayload(), ...buildSelfTransferPayload() };
    const request = buildFacilitatorRequest({ paymentPayload: buildPaymentPayload({ payload: partial }) });
    expect(classifyFacilitatorBody(request)).toMatchObject({ kind: "rejected", reason: MALFORMED_PAYLOAD });
  });

  it("answers unsupported_scheme for another scheme's requirements", () => {
    const body = { ...buildFacilitatorRequest(), paymentRequirements: { ...buildRequirements(), scheme: "exact" } };
    expect(classifyFacilitatorBody(body)).toMatchObject({ kind: "rejected", reason: UNSUPPORTED_SCHEME });
  });

  it("answers unsupported_scheme for another scheme in the echoed offer", () => {
    const paymentPayload = { ...buildPaymentPayload(), accepted: { ...buildRequirements(), scheme: "exact" } };
    expect(classifyFacilitatorBody({ ...buildFacilitatorRequest(), paymentPayload })).toMatchObject({
      kind: "rejected",
      reason: UNSUPPORTED_SCHEME,
    });
  });

  it.each([
    ["null", null],
    ["an array", []],
    ["x402 version 1", { ...buildFacilitatorRequest(), x402Version: 1 }],
    ["requirements missing", { ...buildFacilitatorRequest(), paymentRequirements: undefined }],
    ["a bad amount", { ...buildFacilitatorRequest(), paymentRequirements: { ...buildRequirements(), amount: "1e3" } }],
  ])("rejects %s as malformed", (_label, body) => {
    expect(classifyFacilitatorBody(body)).toMatchObject({ kind: "rejected", reason: MALFORMED_PAYLOAD });
  });

  describe("bodies no canonical serialiser could hash", () => {
    const permitWith = (extra: string) => JSON.stringify(buildPermitPayload()).replace(/}$/, `,${extra}}`);
    const selfTransferWith = (extra: string) => JSON.stringify(buildSelfTransferPayload()).replace(/}$/, `,${extra}}`);
    const x402With = (payloadText: string) =>
      JSON.stringify(buildFacilitatorRequest({ paymentPayload: buildPaymentPayload({ payload: {} }) })).replace('"payload":{}', `"payload":${payloadText}`);
    const deepArray = `${"[".repeat(5000)}${"]".repeat(5000)}`;

    it.each([
      ["legacy self-transfer with 1e400 under an unknown key", selfTransferWith('"x":1e400'), "body holds a number outside the finite range"],
      ["legacy permit with -1e400 under an unknown key", permitWith('"x":-1e400'), "body holds a number outside the finite range"],
      ["legacy body with an array nested 5,000 deep", selfTransferWith(`"x":${deepArray}`), "body nests deeper than 64 levels"],
      ["x402 permit payload with 1e400", x402With(permitWith('"x":1e400')), "body holds a number outside the finite range"],
      ["x402 self-transfer payload with a deep array", x402With(selfTransferWith(`"x":${deepArray}`)), "body nests deeper than 64 levels"],
    ])("refuses a %s as malformed_payload", (_label, text, detail) => {
      expect(classifyFacilitatorBody(JSON.parse(text))).toEqual({ kind: "rejected", reason: MALFORMED_PAYLOAD, detail });
    });
  });

  it("normalises an all-uppercase payer to its EIP-55 form", () => {
    const payload = buildPermitPayload();
    const upper = { ...payload, payer: `0x${payload.payer.slice(2).toUpperCase()}` };
    expect(classifyFacilitatorBody(upper)).toMatchObject({ kind: "legacy", payment: { kind: "permit", payload: { payer: payload.payer } } });
  });
});
