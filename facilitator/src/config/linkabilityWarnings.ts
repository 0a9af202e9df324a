/**
 * What lets a chain observer pair a payer's burn with the treasury's mint, as startup warnings: one account
 * relaying burns and sending mints, and a finalize schedule that mints right after each burn. Both are fine
 * under profile `local` (demos stay quick) and warned about everywhere else; `start` logs them and `check`
 * prints them in its `keys` and `finalize` probes, from this one place.
 */
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";
import type { FacilitatorSecrets } from "./parseSecrets.js";

/** A linkability warning: its stable code and one line for the operator (never a key's value). */
export type LinkabilityWarning = { code: "linkable_hands" | "linkable_schedule"; message: string };

/** The warning when one account both relays burns and sends mints outside profile `local`. */
export function separateHandsWarning(
  config: Pick<FacilitatorConfig, "profile">,
  secrets: Pick<FacilitatorSecrets, "relayerPk" | "minterPk">,
): LinkabilityWarning | undefined {
  if (config.profile === "local") return undefined;
  if (secrets.minterPk !== undefined && secrets.minterPk.toLowerCase() !== secrets.relayerPk.toLowerCase()) return undefined;
  const which = secrets.minterPk === undefined ? "SVC_MINTER_PK is unset" : "SVC_MINTER_PK equals SVC_RELAYER_PK";
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
