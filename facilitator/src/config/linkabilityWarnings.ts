/**
 * What lets a chain observer pair a payer's burn with the treasury's mint: one account relaying burns and
 * sending mints, and a finalize schedule that mints right after each burn. Both are fine under profile
 * `local` (demos stay quick). Under `testnet` and `production` one account for both is refused at startup
 * ({@link separateMinterViolation}, thrown by checkStartupRules.ts); with an unset profile, and for the
 * schedule, it is a startup warning. `start` logs the warnings and `check` prints them in its `keys` and
 * `finalize` probes, from this one place.
 */
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";
import type { FacilitatorSecrets } from "./parseSecrets.js";
import { SeparateMinterRequiredError } from "./errors.js";

/** A linkability warning: its stable code and one line for the operator (never a key's value). */
export type LinkabilityWarning = { code: "linkable_hands" | "linkable_schedule"; message: string };

/** Whether one account would both relay burns and send mints: `SVC_MINTER_PK` unset or equal to the relayer's key. */
function sharedHands(secrets: Pick<FacilitatorSecrets, "relayerPk" | "minterPk">): "unset" | "equals_relayer" | undefined {
  if (secrets.minterPk === undefined) return "unset";
  return secrets.minterPk.toLowerCase() === secrets.relayerPk.toLowerCase() ? "equals_relayer" : undefined;
}

/** The startup error when profile `testnet` or `production` has no minter key of its own, else `undefined`. */
export function separateMinterViolation(
  config: Pick<FacilitatorConfig, "profile">,
  secrets: Pick<FacilitatorSecrets, "relayerPk" | "minterPk">,
): SeparateMinterRequiredError | undefined {
  if (config.profile !== "testnet" && config.profile !== "production") return undefined;
  const reason = sharedHands(secrets);
  return reason === undefined ? undefined : new SeparateMinterRequiredError({ profile: config.profile, reason });
}

/**
 * The warning when one account both relays burns and sends mints under an unset profile (the named non-local
 * profiles refuse it instead, see {@link separateMinterViolation}).
 */
export function separateHandsWarning(
  config: Pick<FacilitatorConfig, "profile">,
  secrets: Pick<FacilitatorSecrets, "relayerPk" | "minterPk">,
): LinkabilityWarning | undefined {
  if (config.profile !== undefined) return undefined;
  const reason = sharedHands(secrets);
  if (reason === undefined) return undefined;
  const which = reason === "unset" ? "SVC_MINTER_PK is unset" : "SVC_MINTER_PK equals SVC_RELAYER_PK";
  return {
    code: "linkable_hands",
    message: `${which}: one account relays payers' burns and submits the mints to the treasury, so a chain observer can link them; set SVC_MINTER_PK to a separate funded key`,
  };
}

/** The warning when mints follow their burns within one pass outside profile `local`. */
export function scheduleWarning(config: {
  profile?: FacilitatorConfig["profile"];
  finalize: Pick<FacilitatorConfig["finalize"], "max_delay_seconds">;
}): LinkabilityWarning | undefined {
  if (config.profile === "local" || config.finalize.max_delay_seconds !== 0) return undefined;
  return {
    code: "linkable_schedule",
    message:
      "finalize.max_delay_seconds is 0: each mint follows its burn within one pass, so a chain observer can pair them; " +
      "set [finalize] (facilitator/README.md recommends min_delay_seconds 60, max_delay_seconds 1800, min_anonymity_set 3)",
  };
}

/** Both warnings that apply to `config` and `secrets`. */
export function linkabilityWarnings(config: Pick<FacilitatorConfig, "profile" | "finalize">, secrets: FacilitatorSecrets): LinkabilityWarning[] {
  return [separateHandsWarning(config, secrets), scheduleWarning(config)].filter((warning) => warning !== undefined);
}
