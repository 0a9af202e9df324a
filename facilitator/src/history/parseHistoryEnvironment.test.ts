import { describe, expect, it } from "vitest";

import { IncompleteProofConfigurationError, InvalidHistoryVariableError } from "./errors.js";
import { HISTORY_VARIABLES, parseHistoryEnvironment, PROOF_VARIABLES } from "./parseHistoryEnvironment.js";

const COMPLETE = {
  PAYMENT_HISTORY_PATH: "/var/lib/facilitator/history.jsonl",
  HISTORY_IDENTITY_SECRET: "s".repeat(32),
  HISTORY_PAYER_TENANT: "tenant-payer",
  HISTORY_PAYER_ACTOR: "agent-1",
  HISTORY_PROVIDER_TENANT: "tenant-provider",
  HISTORY_PROVIDER_ACTOR: "shop-1",
};

const PROOFS = {
  HISTORY_ISSUER_PRIVATE_KEY_PATH: "/k/issuer-key.pem",
  HISTORY_ISSUER_MANIFEST_PATH: "/k/manifest.json",
  HISTORY_ISSUER_TRUST_ANCHOR_PATH: "/k/trust-anchor.json",
  HISTORY_ARTIFACT_PATH: "/var/lib/facilitator/proofs",
};

describe("parseHistoryEnvironment", () => {
  it("switches history on only with all six variables", () => {
    expect(parseHistoryEnvironment(COMPLETE)).toMatchObject({
      enabled: true,
      proofs: undefined,
      history: { loginDomain: "svc-zerc20-facilitator", providerSettlementEvidence: false, wallets: { payer: undefined, provider: undefined } },
    });
    for (const variable of HISTORY_VARIABLES) {
      expect(parseHistoryEnvironment({ ...COMPLETE, [variable]: "" })).toEqual({ enabled: false, missing: [variable], proofs: undefined });
    }
    expect(parseHistoryEnvironment({})).toEqual({ enabled: false, missing: [...HISTORY_VARIABLES], proofs: undefined });
  });

  it("fails on a partial proof group, naming the missing variables, with or without history", () => {
    for (const variable of PROOF_VARIABLES) {
      const partial = { ...PROOFS, [variable]: undefined };
      expect(() => parseHistoryEnvironment({ ...COMPLETE, ...partial })).toThrow(IncompleteProofConfigurationError);
      expect(() => parseHistoryEnvironment(partial)).toThrow(IncompleteProofConfigurationError);
    }
    expect(() => parseHistoryEnvironment({ ...COMPLETE, HISTORY_ARTIFACT_PATH: "/p" })).toThrowErrorMatchingInlineSnapshot(`
      [IncompleteProofConfigurationError: incomplete proof configuration: HISTORY_ISSUER_PRIVATE_KEY_PATH, HISTORY_ISSUER_MANIFEST_PATH, HISTORY_ISSUER_TRUST_ANCHOR_PATH are not set.

      Details: set all of HISTORY_ISSUER_PRIVATE_KEY_PATH, HISTORY_ISSUER_MANIFEST_PATH, HISTORY_ISSUER_TRUST_ANCHOR_PATH and HISTORY_ARTIFACT_PATH, or none]
    `);
  });

  it("reads the proof group with documented defaults", () => {
    expect(parseHistoryEnvironment({ ...COMPLETE, ...PROOFS }).proofs).toEqual({
      privateKeyPath: "/k/issuer-key.pem",
      manifestPath: "/k/manifest.json",
      trustAnchorPath: "/k/trust-anchor.json",
      artifactPath: "/var/lib/facilitator/proofs",
      issuerId: undefined,
      keyId: undefined,
      ttlSeconds: 2_592_000,
    });
  });

  it.each([
    ["HISTORY_IDENTITY_SECRET", "short"],
    ["HISTORY_PAYER_TENANT", "two words"],
    ["HISTORY_PROVIDER_ACTOR", "line\nbreak"],
    ["HISTORY_PAYER_ADDRESS", "0x1234"],
    ["HISTORY_PROVIDER_SETTLEMENT_EVIDENCE", "yes"],
    ["HISTORY_LOGIN_DOMAIN", "a b"],
  ])("names %s and never its value when it is malformed", (variable, value) => {
    const thrown = (() => {
      try {
        parseHistoryEnvironment({ ...COMPLETE, [variable]: value });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(InvalidHistoryVariableError);
    expect((thrown as InvalidHistoryVariableError).variable).toBe(variable);
    expect((thrown as Error).message).not.toContain(value);
  });

  it("refuses a proof lifetime out of range", () => {
    expect(() => parseHistoryEnvironment({ ...COMPLETE, ...PROOFS, HISTORY_PROOF_TTL_SECONDS: "59" })).toThrow(InvalidHistoryVariableError);
    expect(parseHistoryEnvironment({ ...COMPLETE, ...PROOFS, HISTORY_PROOF_TTL_SECONDS: "60" }).proofs?.ttlSeconds).toBe(60);
  });
});
