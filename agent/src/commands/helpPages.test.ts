import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

import { beforeAll, describe, expect, it } from "vitest";

import { AGENT_CLI, builtModule } from "../testing/builtAgent.js";
import { makeTempDir } from "../testing/tempDir.js";
import { runCli } from "./runCli.js";

const RECORDER = fileURLToPath(new URL("../testing/recordLoadedModules.mjs", import.meta.url));
const PAGES_FILE = join(AGENT_CLI, "..", "helpPages.json");

/** What the command line itself (clipanion) prints for `argv`, in this process. */
async function commandLineOutput(argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      stdout += chunk.toString();
      callback();
    },
  });
  const code = await runCli(argv, { stdin: Readable.from([]), stdout: sink, stderr: sink, env: {}, colorDepth: 1 });
  return { code, stdout };
}

beforeAll(() => {
  // The build step `make build` runs; run again here so the pages match the modules under test.
  const build = spawnSync(process.execPath, [fileURLToPath(builtModule("commands/writeHelpPages.js"))], { encoding: "utf8" });
  expect(build.status, build.stderr).toBe(0);
});

describe("help pages rendered at build time", () => {
  it("hold, for every request, exactly what the command line prints", async () => {
    const { pages } = JSON.parse(readFileSync(PAGES_FILE, "utf8")) as { pages: Record<string, string> };
    const keys = Object.keys(pages);
    // The bare CLI and every command, each with --help and -h.
    expect(keys).toEqual(expect.arrayContaining(["--help", "-h", "pay --help", "approvals approve -h", "tui --help", "mcp --help"]));
    for (const key of keys) expect({ key, ...(await commandLineOutput(key.split(" "))) }).toEqual({ key, code: 0, stdout: pages[key] });
    // Every value is named, never clipanion's bare index; a command's usage line lists its required options.
    expect(keys.filter((key) => pages[key]?.includes("#0"))).toEqual([]);
    expect(pages["proof --help"]).toContain("$ svc-agent proof --out <dir> --trust-anchor <file> <paymentId>");
  });

  it.each([[["--help"]], [["pay", "--help"]], [["approvals", "deny", "-h"]]])(
    "answer %j from the page: the same text, no clipanion, no command module",
    async (argv) => {
      const dir = await makeTempDir();
      try {
        const record = join(dir.path, "modules.txt");
        const child = spawnSync(process.execPath, ["--import", RECORDER, AGENT_CLI, ...argv], {
          env: { PATH: process.env.PATH, RECORD_MODULES_TO: record },
          encoding: "utf8",
        });
        expect(child.status).toBe(0);
        expect(child.stdout).toBe((await commandLineOutput(argv)).stdout);
        const modules = readFileSync(record, "utf8").split("\n");
        // The recorder saw the entry's own import, so an empty list cannot pass for a light one.
        expect(modules.some((url) => url.endsWith("/cliHelp/helpPages.js"))).toBe(true);
        expect(modules.filter((url) => url.includes("/node_modules/clipanion/") || url.includes("/dist/commands/"))).toEqual([]);
      } finally {
        await dir.remove();
      }
    },
  );
});
