import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["scheme", "anvil-fixtures", "facilitator", "provider-demo", "agent", "e2e", "bench"],
    // Two test files at a time: vitest's default on two cores is one, and most suites spend their time waiting
    // on anvil, daemons and child processes, so two overlap well (about 14 against 21 minutes on two cores).
    // More would make the heavy suites' deadlines depend on the machine's core count.
    maxWorkers: 2,
  },
});
