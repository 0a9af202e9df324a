/**
 * The decider is deliberately not probed (the spec says `check` leaves it alone: it serves only the batch
 * proving path). A note line says so, so its absence from the output is not mistaken for an oversight.
 */
import { redactUrl, type FacilitatorConfig } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** Notes the decider URL (redacted) without contacting it. */
export function noteDecider(config: FacilitatorConfig): CheckFinding[] {
  const list = new FindingList("decider");
  list.skip(`${redactUrl(config.network.decider_url)} not probed: it is called only on the batch proving path`);
  return list.findings;
}
