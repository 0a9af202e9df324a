/**
 * What `GET /readyz` answers: one verdict per component the settlement path needs, built so that it can be
 * shown to anyone (URLs credential-redacted, no error messages from libraries, no secrets).
 */

/** The components whose failure makes offers unsettleable. */
export const READINESS_COMPONENTS = ["rpc", "indexer", "journal", "stock"] as const;

/** One of {@link READINESS_COMPONENTS}. */
export type ReadinessComponent = (typeof READINESS_COMPONENTS)[number];

/** Why a component is not ready; snake_case codes that never change meaning. */
export const READINESS_REASON = {
  unreachable: "unreachable",
  chainIdMismatch: "chain_id_mismatch",
  unhealthy: "unhealthy",
  notWritable: "not_writable",
  stockEmpty: "stock_empty",
  stockStopped: "stock_stopped",
} as const;

/** One of the values of {@link READINESS_REASON}. */
export type ReadinessReason = (typeof READINESS_REASON)[keyof typeof READINESS_REASON];

/** The verdict on one component; `detail` holds public facts only (a redacted URL, a count). */
export type ComponentReadiness = {
  ready: boolean;
  reason?: ReadinessReason;
  detail?: Record<string, string | number | boolean | null>;
};

/** The whole probe result; `checkedAt` is unix milliseconds. */
export type ReadinessReport = {
  ready: boolean;
  checkedAt: number;
  components: Record<ReadinessComponent, ComponentReadiness>;
};
