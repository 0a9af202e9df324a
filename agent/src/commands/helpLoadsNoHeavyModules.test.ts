import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { builtModule } from "../testing/builtAgent.js";
import { makeTempDir } from "../testing/tempDir.js";

/** The `--import` hook that records every module a process loads. */
const RECORDER = fileURLToPath(new URL("../testing/recordLoadedModules.mjs", import.meta.url));

/** Packages that only the commands using them may load: cryptography, chain clients, the TUI and the MCP SDK. */
const HEAVY = /\/node_modules\/(viem|poseidon-lite|ink|react|@modelcontextprotocol)\//;

/** Runs `script` (an ES module) in a fresh node and returns the URL of every module it loaded. */
async function modulesLoadedBy(script: string): Promise<string[]> {
  const dir = await makeTempDir();
  try {
    const record = join(dir.path, "modules.txt");
    const child = spawnSync(process.execPath, ["--import", RECORDER, "--input-type=module", "-e", script], {
      env: { ...process.env, RECORD_MODULES_TO: record },
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    return readFileSync(record, "utf8")
      .split("\n")
      .filter((line) => line !== "");
  } finally {
    await dir.remove();
  }
}

describe("help and usage", () => {
  it("load only clipanion and the command definitions", async () => {
    const runCli = JSON.stringify(builtModule("commands/runCli.js"));
    const modules = await modulesLoadedBy(`
      import { Writable } from "node:stream";
      import { runCli } from ${runCli};
      const sink = new Writable({ write(_chunk, _encoding, callback) { callback(); } });
      const context = { stdin: process.stdin, stdout: sink, stderr: sink, env: {}, colorDepth: 1 };
      const lines = [[], ["--help"], ["--version"], ["no-such-command"], ["pay"], ["quote", "--bogus"]];
      const commands = ["quote", "pay", "resend", "ledger", "limits", "approvals", "approvals approve", "approvals deny", "history", "proof", "proof verify", "tui", "mcp"];
      for (const command of commands) lines.push([...command.split(" "), "--help"]);
      const codes = [];
      for (const argv of lines) codes.push(await runCli(argv, context));
      if (codes.join(",") !== ["2,0,0,2,2,2", ...commands.map(() => "0")].join(",")) throw new Error("unexpected exit codes " + codes);
    `);
    expect(modules.some((url) => url.includes("/node_modules/clipanion/"))).toBe(true);
    expect(modules.filter((url) => HEAVY.test(url))).toEqual([]);
  });

  // The check above can fail: a command's implementation module does load them.
  it("are told apart from a command's implementation, which loads viem and poseidon-lite", async () => {
    const modules = await modulesLoadedBy(`await import(${JSON.stringify(builtModule("commands/pay.js"))});`);
    expect(modules.some((url) => url.includes("/node_modules/viem/"))).toBe(true);
    expect(modules.some((url) => url.includes("/node_modules/poseidon-lite/"))).toBe(true);
  });
});
