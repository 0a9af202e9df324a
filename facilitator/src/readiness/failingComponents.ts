import { READINESS_COMPONENTS, type ReadinessComponent, type ReadinessReport } from "./readinessReport.js";

/** The components of `report` that are not ready, in their fixed order. */
export function failingComponents(report: ReadinessReport): ReadinessComponent[] {
  return READINESS_COMPONENTS.filter((name) => !report.components[name].ready);
}
