/**
 * What this daemon may do, derived once from the profile and the prover: every part that behaves differently
 * off profile `local` reads its one flag here instead of testing the profile itself.
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
 * The capabilities of a configuration. Profile `local` (which the startup rules tie to chain 31337) does
 * everything, with the fixture prover. `testnet` and `production` accept, finalize and issue offers once a
 * real prover is configured (`prover.kind` other than `fixture`): a payment accepted there must be mintable,
 * and the confirmation and finality policy (`network.confirmations`, `network.finality_depth`, the reorg
 * watch) is what the spec asks of acceptance off `local`. No profile at all moves no funds: a profile is never
 * inferred.
 *
 * @example
 * capabilitiesOf({ profile: "local" }).acceptsPayments; // true
 * capabilitiesOf({ profile: "testnet", prover: { kind: "snarkjs" } }).acceptsPayments; // true
 */
export function capabilitiesOf(config: Pick<FacilitatorConfig, "profile"> & { prover?: { kind: string } | undefined }): Capabilities {
  const local = config.profile === "local";
  const provable = (config.profile === "testnet" || config.profile === "production") && config.prover !== undefined && config.prover.kind !== "fixture";
  const moves = local || provable;
  return { issuesOffers: moves, acceptsPayments: moves, finalizes: moves, fixtureProver: local };
}
