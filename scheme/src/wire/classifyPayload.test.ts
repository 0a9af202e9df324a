import { describe, expect, it } from "vitest";

import { MalformedPayloadError } from "./errors.js";
import { MALFORMED_PAYLOAD } from "../reasons/reasonCodes.js";
import { buildPermitPayload, buildSelfTransferPayload, TEST_BURN_TX_HASH } from "../testing/builders.js";
import { classifyPayload } from "./classifyPayload.js";
import { parseSchemePayload } from "./parseSchemePayload.js";

const TRIPLE = ["permit", "payer", "burnAuthSig"] as const;

/** Every non-empty proper subset of the permit triple: the six partial combinations. */
const PARTIAL_TRIPLES = [["permit"], ["payer"], ["burnAuthSig"], ["permit", "payer"], ["permit", "burnAuthSig"], ["payer", "burnAuthSig"]] as const;

describe("classifyPayload", () => {
  it("classifies a complete permit payload", () => {
    const payload = buildPermitPayload();
    expect(classifyPayload(payload)).toEqual({ kind: "permit", payload });
  });

  it("classifies a self-transfer payload", () => {
    const payload = buildSelfTransferPayload();
    expect(classifyPayload(payload)).toEqual({ kind: "self-transfer", payload });
  });

  it("covers all six partial combinations", () => {
    expect(PARTIAL_TRIPLES).toHaveLength(2 ** TRIPLE.length - 2);
  });

  describe.each(PARTIAL_TRIPLES.map((kept) => [kept.join(" + "), kept] as const))("a partial triple with only %s", (_name, kept) => {
    const full = { ...buildPermitPayload(), burnTxHash: TEST_BURN_TX_HASH };
    const partial = Object.fromEntries(Object.entries(full).filter(([key]) => !TRIPLE.some((field) => field === key) || kept.some((k) => k === key)));

    it("is malformed, never self-transfer, even next to a valid burnTxHash", () => {
      const result = classifyPayload(partial);
      expect(result.kind).toBe("malformed");
      expect(result).toMatchObject({ reason: MALFORMED_PAYLOAD });
    });
  });

  it("names what a partial triple lacks without quoting values", () => {
    const { burnAuthSig: _dropped, ...partial } = buildPermitPayload();
    const result = classifyPayload(partial);
    expect(result).toEqual({
      kind: "malformed",
      reason: MALFORMED_PAYLOAD,
      detail: "partial permit payload: has permit, payer but lacks burnAuthSig",
    });
  });

  it("treats a null triple member as present", () => {
    expect(classifyPayload({ ...buildSelfTransferPayload(), payer: null }).kind).toBe("malformed");
  });

  it("reports a bad field of a complete triple by path, never by value", () => {
    const payload = buildPermitPayload({ burnAuthSig: `0x${"ab".repeat(64)}` });
    const result = classifyPayload(payload);
    expect(result.kind).toBe("malformed");
    if (result.kind !== "malformed") return;
    expect(result.detail).toMatchInlineSnapshot(`"burnAuthSig: expected 0x and 130 hex digits (a 65-byte signature)"`);
    expect(result.detail).not.toContain("abab");
  });

  it("chooses the permit path when the full triple and burnTxHash are both present", () => {
    expect(classifyPayload({ ...buildPermitPayload(), burnTxHash: TEST_BURN_TX_HASH }).kind).toBe("permit");
  });

  it.each([
    ["an empty object", {}],
    ["only a challenge nonce", { challengeNonce: buildSelfTransferPayload().challengeNonce }],
    ["a malformed burnTxHash", { ...buildSelfTransferPayload(), burnTxHash: "0x12" }],
    ["null", null],
    ["an array", [buildSelfTransferPayload()]],
    ["a string", "payload"],
  ])("rejects %s as malformed", (_label, payload) => {
    expect(classifyPayload(payload).kind).toBe("malformed");
  });
});

describe("parseSchemePayload", () => {
  it("returns an accepted payload", () => {
    const payload = buildSelfTransferPayload();
    expect(parseSchemePayload(payload)).toEqual(payload);
  });

  it("throws MalformedPayloadError on a partial triple", () => {
    expect(() => parseSchemePayload({ payer: buildPermitPayload().payer })).toThrowErrorMatchingInlineSnapshot(`
      [MalformedPayloadError: Malformed svc-zerc20 payment payload.

      Details: partial permit payload: has payer but lacks permit, burnAuthSig]
    `);
    expect(() => parseSchemePayload({})).toThrow(MalformedPayloadError);
  });
});
