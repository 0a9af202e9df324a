import { describe, expect, it } from "vitest";
import { renderNextStep } from "./nextStep.js";

describe("renderNextStep", () => {
  it("gives the facilitator command from the folder make stack ran in, secrets sourced from the env file", () => {
    expect(
      renderNextStep({
        cwd: "/repo",
        facilitatorCli: "/repo/facilitator/dist/cli.js",
        facilitatorToml: "/repo/.stack/facilitator.toml",
        facilitatorEnv: "/repo/.stack/facilitator.env",
        facilitatorPort: 4032,
      }),
    ).toEqual([
      "next: start the facilitator against this stack in another terminal, from /repo (it listens on http://127.0.0.1:4032):",
      "  set -a; . .stack/facilitator.env; set +a",
      "  node facilitator/dist/cli.js start --config .stack/facilitator.toml",
    ]);
  });

  it("keeps paths outside the folder absolute, quotes what the shell would split, and leaves out port 0", () => {
    expect(
      renderNextStep({
        cwd: "/home/me/svc",
        facilitatorCli: "/home/me/svc/facilitator/dist/cli.js",
        facilitatorToml: "/tmp/my stack/facilitator.toml",
        facilitatorEnv: "/tmp/it's/facilitator.env",
        facilitatorPort: 0,
      }),
    ).toEqual([
      "next: start the facilitator against this stack in another terminal, from /home/me/svc:",
      "  set -a; . '/tmp/it'\\''s/facilitator.env'; set +a",
      "  node facilitator/dist/cli.js start --config '/tmp/my stack/facilitator.toml'",
    ]);
  });

  it("writes a file right in the folder as ./name, which `.` reads from the folder rather than PATH", () => {
    const [, source] = renderNextStep({
      cwd: "/repo",
      facilitatorCli: "/repo/facilitator/dist/cli.js",
      facilitatorToml: "/repo/facilitator.toml",
      facilitatorEnv: "/repo/facilitator.env",
      facilitatorPort: 4032,
    });
    expect(source).toBe("  set -a; . ./facilitator.env; set +a");
  });
});
