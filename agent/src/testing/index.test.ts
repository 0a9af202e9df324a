import { readFileSync } from "node:fs";
import { join } from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as testing from "@svc/agent/testing";

import { AGENT_DIR } from "./builtAgent.js";

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

  it("stays out of dist/: the build compiles no test or testing file, and no built file imports one", () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(AGENT_DIR, "tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const built = parsed?.fileNames ?? [];
    expect(built).toContain(join(AGENT_DIR, "src", "cli.ts"));
    expect(built.filter((file) => /\/testing\/|\.test\.tsx?$/.test(file))).toEqual([]);
    // An import would pull the module into the build despite the exclude.
    const importsTesting = /(?:from|import)\s*\(?\s*["'][^"']*\/testing(?:\/[^"']*)?["']/;
    expect(built.filter((file) => importsTesting.test(readFileSync(file, "utf8")))).toEqual([]);
  });
});
