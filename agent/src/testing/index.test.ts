import { describe, expect, it } from "vitest";
import * as testing from "@svc/agent/testing";

describe("@svc/agent/testing surface", () => {
  // Resolved through the package's own `exports`, as the e2e suites import it.
  it("exports exactly these runtime names", () => {
    expect(Object.keys(testing).sort()).toEqual([
      "AGENT_CLI",
      "EXIT_APPROVAL_DENIED",
      "EXIT_DECLINED",
      "EXIT_FAILED",
      "EXIT_HTTP_ERROR",
      "EXIT_INTERRUPTED",
      "EXIT_OK",
      "EXIT_UNKNOWN",
      "EXIT_USAGE",
      "Ledger",
      "makeTempDir",
      "renderTui",
      "runAgent",
      "runCliInProcess",
      "startAgent",
      "startLossyProxy",
      "startTestServer",
      "waitForFrame",
      "waitForText",
    ]);
  });
});
