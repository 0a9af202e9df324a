import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "facilitator",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
