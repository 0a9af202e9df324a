/**
 * What this daemon may do, derived once from the profile: every part that behaves differently off profile
 * `local` reads its one flag here instead of testing the profile itself.
 */
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";

/** The daemon's capabilities under its profile. */
export type Capabilities = {
  /** `POST /challenge` issues offers, so burn addresses are derived and stocked. */
  issuesOffers: boolean;
  /** `/verify` and `/settle` check and accept payments, and `/supported` advertises the scheme. */
  acceptsPayments: boolean;
  /** The finalize loop may change chain state (mint, sweep fees); otherwise it runs frozen. */
  finalizes: boolean;
  /** The fixture proof system stands in for the prover (only the local stack has one). */
  fixtureProver: boolean;
};

/**
 * The capabilities of `profile`: only `local` (which the startup rules tie to chain 31337) accepts payments;
 * `testnet`, `production` and no profile at all run with everything that moves funds turned off.
 *
 * @example
 * capabilitiesOf({ profile: "local" }).acceptsPayments; // true
 */
export function capabilitiesOf(config: Pick<FacilitatorConfig, "profile">): Capabilities {
  const local = config.profile === "local";
  return { issuesOffers: local, acceptsPayments: local, finalizes: local, fixtureProver: local };
}
