import { spawn } from "node:child_process";
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

/** Modules only running a command needs: the daemon's libraries, the database driver and the scheme. */
const HEAVY = [/\/node_modules\/viem\//, /\/node_modules\/pg\//, /\/node_modules\/koa\//, /\/scheme\/(dist|src)\//, /\/facilitator\/dist\/daemon\//];

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "facilitator-help-imports-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `dist/cli.js argv` and returns its exit code, its stdout and the URLs of every module it resolved. */
async function loadedBy(argv: string[]): Promise<{ code: number | null; stdout: string; urls: string[] }> {
  const file = join(dir, `${argv.join("-") || "bare"}.txt`);
  const child = spawn(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(REGISTER_HOOK)}`, CLI_PATH, ...argv], {
    env: { PATH: process.env.PATH, LOADED_MODULES_FILE: file },
  });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const urls = (await readFile(file, "utf8").catch(() => "")).split("\n").filter((url) => url !== "");
  return { code, stdout, urls };
}

describe("help and usage load only the command definitions", () => {
  it.each([[["--help"]], [["start", "--help"]], [["check", "--help"]], [["history-keys", "init", "--help"]], [["verify-proof", "--help"]]])(
    "%j loads clipanion but no daemon, driver or scheme module",
    async (argv) => {
      expect(existsSync(CLI_PATH), MISSING_BUILD).toBe(true);
      const { code, stdout, urls } = await loadedBy(argv);
      expect(code).toBe(0);
      expect(stdout).toContain("svc-facilitator");
      // The hook saw the CLI's own imports, so an empty list cannot pass for a light one.
      expect(urls.some((url) => url.includes("/clipanion/"))).toBe(true);
      expect(urls.some((url) => url.endsWith("/commands/startCommand.js"))).toBe(true);
      expect(urls.filter((url) => HEAVY.some((pattern) => pattern.test(url)))).toEqual([]);
    },
  );
});
