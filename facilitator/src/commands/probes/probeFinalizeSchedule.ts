/**
 * The `finalize` probe: the finalize schedule `start` will apply. Outside profile `local` the fast default
 * (no delay, so each mint follows its burn within one pass) is a warning: it lets a chain observer pair
 * every mint with the burn just before it. Profile `local` keeps it without a warning so demos stay quick.
 */
import type { FacilitatorConfig } from "../../config/index.js";
import { scheduleWarning } from "../../config/linkabilityWarnings.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** Describes `[finalize]`, warning outside profile `local` when it is the fast default. */
export function probeFinalizeSchedule(config: FacilitatorConfig): CheckFinding[] {
  const list = new FindingList("finalize");
  const { min_delay_seconds: min, max_delay_seconds: max, min_anonymity_set: k } = config.finalize;
  const warning = scheduleWarning(config);
  if (warning !== undefined) {
    list.warn(warning.message);
    return list.findings;
  }
  const crowd = k === 1 ? "" : `, once ${k} payments of the same amount wait (itself included) or ${max} s have passed`;
  list.ok(`mints ${min}-${max} s after acceptance (a keyed random delay), in a keyed order${crowd}`);
  return list.findings;
}
