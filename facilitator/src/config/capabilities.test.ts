import { describe, expect, it } from "vitest";

import { capabilitiesOf } from "./capabilities.js";

describe("capabilitiesOf", () => {
  it("turns everything on under profile local, with the fixture prover", () => {
    expect(capabilitiesOf({ profile: "local" })).toEqual({ issuesOffers: true, acceptsPayments: true, finalizes: true, fixtureProver: true });
    expect(capabilitiesOf({ profile: "local", prover: { kind: "fixture" } })).toEqual({
      issuesOffers: true,
      acceptsPayments: true,
      finalizes: true,
      fixtureProver: true,
    });
  });

  it.each(["testnet", "production", undefined] as const)("turns everything off under profile %s with the fixture prover or none", (profile) => {
    const off = { issuesOffers: false, acceptsPayments: false, finalizes: false, fixtureProver: false };
    expect(capabilitiesOf({ profile })).toEqual(off);
    expect(capabilitiesOf({ profile, prover: { kind: "fixture" } })).toEqual(off);
  });

  it.each(["testnet", "production"] as const)(
    "accepts, finalizes and issues offers under profile %s with a real prover, never with the fixture one",
    (profile) => {
      for (const kind of ["command", "http", "snarkjs"]) {
        expect(capabilitiesOf({ profile, prover: { kind } })).toEqual({ issuesOffers: true, acceptsPayments: true, finalizes: true, fixtureProver: false });
      }
    },
  );

  it("moves no funds without a profile, whatever the prover", () => {
    expect(capabilitiesOf({ profile: undefined, prover: { kind: "snarkjs" } }).acceptsPayments).toBe(false);
  });
});
