import { describe, expect, it } from "vitest";

import { capabilitiesOf } from "./capabilities.js";

describe("capabilitiesOf", () => {
  it("turns everything on under profile local", () => {
    expect(capabilitiesOf({ profile: "local" })).toEqual({ issuesOffers: true, acceptsPayments: true, finalizes: true, fixtureProver: true });
  });

  it.each(["testnet", "production", undefined] as const)("turns everything off under profile %s", (profile) => {
    expect(capabilitiesOf({ profile })).toEqual({ issuesOffers: false, acceptsPayments: false, finalizes: false, fixtureProver: false });
  });
});
