import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "e2e",
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    testTimeout: 240_000,
    hookTimeout: 120_000,
  },
});
