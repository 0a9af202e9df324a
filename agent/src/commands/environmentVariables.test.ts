import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { ENVIRONMENT_VARIABLES, environmentHelp } from "./environmentVariables.js";
import { runCliInProcess } from "../testing/runCliInProcess.js";

const SOURCE = join(import.meta.dirname, "..");

/** Every `SVC_*` name a source file (tests and test helpers aside) spells as a string or property. */
async function variablesReadByTheCode(): Promise<Set<string>> {
  const names = new Set<string>();
  const files = (await readdir(SOURCE, { recursive: true })).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith("testing") && !file.endsWith("environmentVariables.ts"),
  );
  expect(files.length).toBeGreaterThan(50);
  for (const file of files) {
    const text = await readFile(join(SOURCE, file), "utf8");
    for (const match of text.matchAll(/["'`.]\s*(SVC_[A-Z0-9_]+)["'`]?/g)) if (match[1] !== undefined) names.add(match[1]);
  }
  return names;
}

describe("the environment variables in --help", () => {
  it("name every SVC_* variable the code reads, and only those", async () => {
    const read = await variablesReadByTheCode();
    expect(read.size).toBeGreaterThan(10);
    expect([...read].sort()).toEqual(ENVIRONMENT_VARIABLES.map(([name]) => name).sort());
  });

  it("are printed by svc-agent --help, one line each", async () => {
    const run = await runCliInProcess(["--help"], {});
    for (const [name] of ENVIRONMENT_VARIABLES) expect(run.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    expect(run.stdout).toContain(environmentHelp());
  });
});
