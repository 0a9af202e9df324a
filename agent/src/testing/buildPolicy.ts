import { loadPolicy } from "../policy/loadPolicy.js";
import type { Policy } from "../policy/policy.js";
import type { SpendAmount } from "../policy/spendAmount.js";

/** A policy with the documented defaults, a throwaway state folder and any overrides, for tests. */
export function buildPolicy(overrides: Partial<Policy> = {}): Policy {
  return { ...loadPolicy({}, { homeDir: "/nonexistent-home" }), ...overrides };
}

/** A limit written in base units, as `SVC_MAX_TOTAL=<n>base` gives it. */
export function baseUnitsLimit(value: string | bigint): SpendAmount {
  return { unit: "base", value: BigInt(value) };
}
