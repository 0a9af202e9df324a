import { describe, expect, it } from "vitest";

import { MALFORMED_PAYLOAD, UNSUPPORTED_SCHEME } from "../reasons/reasonCodes.js";
import {
  buildFacilitatorRequest,
  buildPaymentPayload,
  buildPermitPayload,
  buildRequirements,
  buildSelfTransferPayload,
} from "../testing/builders.js";
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
});
