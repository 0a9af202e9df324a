import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["scheme", "anvil-fixtures", "facilitator", "provider-demo", "agent", "e2e", "bench"],
  },
});
