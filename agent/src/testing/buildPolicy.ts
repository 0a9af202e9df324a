import { loadPolicy } from "../policy/loadPolicy.js";
import type { Policy } from "../policy/policy.js";

/** A policy with the documented defaults, a throwaway state folder and any overrides, for tests. */
export function buildPolicy(overrides: Partial<Policy> = {}): Policy {
  return { ...loadPolicy({}, { homeDir: "/nonexistent-home" }), ...overrides };
}
