import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI_PATH = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const MISSING_BUILD = "facilitator/dist/cli.js is missing: run `tsc -b` (`make build`) before the tests; `make test` builds first";

// A module resolve hook (run in the loader's thread) appending every resolved URL to the file named by
// LOADED_MODULES_FILE; `--import` registers it before the CLI's first import.
const RECORD_HOOK = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.LOADED_MODULES_FILE, result.url + "\\n");
  return result;
}`;
const REGISTER_HOOK = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(RECORD_HOOK)}`)});`;

/** Modules only running a command needs: the daemon's libraries, the database driver and the scheme (but its light help-page reader). */
const HEAVY = [
  /\/node_modules\/viem\//,
  /\/node_modules\/pg\//,
  /\/node_modules\/koa\//,
  /\/scheme\/(dist|src)\/(?!cliHelp\/)/,
  /\/facilitator\/dist\/daemon\//,
];

const RUN_CLI_URL = new URL("../../dist/commands/runCli.js", import.meta.url).href;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "facilitator-help-imports-"));
  // The build step `make build` runs; run again here so the pages match the modules under test.
  const build = spawnSync(process.execPath, [fileURLToPath(new URL("../../dist/commands/writeHelpPages.js", import.meta.url))], { encoding: "utf8" });
  expect(build.status, build.stderr || MISSING_BUILD).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs `argv` through `dist/cli.js` (help from the rendered pages) or, with `entry: "commandLine"`, through the
 * built `runCli` itself (clipanion), and returns the exit code, the stdout and the URLs of every module resolved.
 */
async function loadedBy(argv: string[], entry: "cli" | "commandLine" = "cli"): Promise<{ code: number | null; stdout: string; urls: string[] }> {
  const file = join(dir, `${entry}-${argv.join("-") || "bare"}.txt`);
  const program =
    entry === "cli"
      ? [CLI_PATH, ...argv]
      : [
          "--input-type=module",
          "-e",
          `const { runCli } = await import(${JSON.stringify(RUN_CLI_URL)}); const { Cli } = await import("clipanion"); process.exitCode = await runCli(${JSON.stringify(argv)}, Cli.defaultContext);`,
        ];
  const child = spawn(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(REGISTER_HOOK)}`, ...program], {
    env: { PATH: process.env.PATH, LOADED_MODULES_FILE: file },
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const urls = (await readFile(file, "utf8").catch(() => "")).split("\n").filter((url) => url !== "");
  return { code, stdout, urls };
}

const HELP_REQUESTS = [[["--help"]], [["start", "--help"]], [["check", "--help"]], [["history-keys", "init", "--help"]], [["verify-proof", "--help"]]];

describe("help from the pages rendered at build time", () => {
  it.each(HELP_REQUESTS)("%j prints the command line's own text and loads neither clipanion nor a command module", async (argv) => {
    expect(existsSync(CLI_PATH), MISSING_BUILD).toBe(true);
    const [fromPage, fromCommandLine] = await Promise.all([loadedBy(argv), loadedBy(argv, "commandLine")]);
    expect(fromPage.code).toBe(0);
    expect(fromPage.stdout).toContain("svc-facilitator");
    expect(fromPage.stdout).toBe(fromCommandLine.stdout);
    // Every value is named (`--config <path>`), never clipanion's bare index.
    expect(fromPage.stdout).not.toContain("#0");
    // The hook saw the entry's own import, so an empty list cannot pass for a light one.
    expect(fromPage.urls.some((url) => url.endsWith("/cliHelp/helpPages.js"))).toBe(true);
    expect(fromPage.urls.filter((url) => url.includes("/clipanion/") || url.includes("/dist/commands/") || HEAVY.some((pattern) => pattern.test(url)))).toEqual(
      [],
    );
  });
});

describe("help and usage load only the command definitions", () => {
  it.each(HELP_REQUESTS)("%j loads clipanion but no daemon, driver or scheme module", async (argv) => {
    expect(existsSync(CLI_PATH), MISSING_BUILD).toBe(true);
    const { code, stdout, urls } = await loadedBy(argv, "commandLine");
    expect(code).toBe(0);
    expect(stdout).toContain("svc-facilitator");
    // The hook saw the CLI's own imports, so an empty list cannot pass for a light one.
    expect(urls.some((url) => url.includes("/clipanion/"))).toBe(true);
    expect(urls.some((url) => url.endsWith("/commands/startCommand.js"))).toBe(true);
    expect(urls.filter((url) => HEAVY.some((pattern) => pattern.test(url)))).toEqual([]);
  });
});
