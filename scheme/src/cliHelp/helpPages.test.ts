import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";

import { afterEach, describe, expect, it } from "vitest";

import { helpRequestKey, readHelpPage, writeHelpPages } from "./helpPages.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A built CLI's folder with one command module, as `writeHelpPages` fingerprints it. */
function distDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "help-pages-"));
  dirs.push(dir);
  mkdirSync(join(dir, "commands", "nested"), { recursive: true });
  writeFileSync(join(dir, "commands", "payCommand.js"), "export {};\n");
  writeFileSync(join(dir, "commands", "nested", "listCommand.js"), "export {};\n");
  return dir;
}

/** A command line that answers help for `pay` and the bare CLI, refuses `broken`, and warns on `noisy`. */
async function runCli(argv: readonly string[], context: { stdout: Writable; stderr: Writable }): Promise<number> {
  const words = argv.slice(0, -1).join(" ");
  if (words === "broken") {
    context.stderr.write("unknown command\n");
    return 2;
  }
  if (words === "noisy") context.stderr.write("deprecated\n");
  context.stdout.write(`help for [${words}] via ${argv.at(-1)}\n`);
  return 0;
}

const definitions = () => [{ path: "cli pay" }, { path: "cli broken" }, { path: "cli noisy" }];

describe("helpRequestKey", () => {
  it("takes --help or -h after command words only", () => {
    expect(helpRequestKey(["--help"])).toBe("--help");
    expect(helpRequestKey(["approvals", "approve", "-h"])).toBe("approvals approve -h");
    expect(helpRequestKey([])).toBeUndefined();
    expect(helpRequestKey(["pay"])).toBeUndefined();
    expect(helpRequestKey(["pay", "--json", "--help"])).toBeUndefined();
    expect(helpRequestKey(["pay", "http://x", "--help"])).toBeUndefined();
    expect(helpRequestKey(["--help", "pay"])).toBeUndefined();
  });
});

describe("help pages", () => {
  it("serve what the command line printed, for the bare CLI and each command that answered 0 with a clean stderr", async () => {
    const dir = distDir();
    expect(await writeHelpPages({ distDir: dir, definitions, runCli })).toBe(4);
    expect(readHelpPage({ distDir: dir, argv: ["--help"] })).toBe("help for [] via --help\n");
    expect(readHelpPage({ distDir: dir, argv: ["pay", "-h"] })).toBe("help for [pay] via -h\n");
    expect(readHelpPage({ distDir: dir, argv: ["broken", "--help"] })).toBeUndefined();
    expect(readHelpPage({ distDir: dir, argv: ["noisy", "--help"] })).toBeUndefined();
    expect(readHelpPage({ distDir: dir, argv: ["pay", "--json", "--help"] })).toBeUndefined();
  });

  it("are not served once a command module was rebuilt or added after they were rendered", async () => {
    const changed = distDir();
    await writeHelpPages({ distDir: changed, definitions, runCli });
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(changed, "commands", "nested", "listCommand.js"), later, later);
    expect(readHelpPage({ distDir: changed, argv: ["--help"] })).toBeUndefined();

    const added = distDir();
    await writeHelpPages({ distDir: added, definitions, runCli });
    writeFileSync(join(added, "commands", "newCommand.js"), "export {};\n");
    expect(readHelpPage({ distDir: added, argv: ["--help"] })).toBeUndefined();
  });

  it("are not served when never rendered or unreadable", () => {
    const dir = distDir();
    expect(readHelpPage({ distDir: dir, argv: ["--help"] })).toBeUndefined();
    writeFileSync(join(dir, "helpPages.json"), "{not json");
    expect(readHelpPage({ distDir: dir, argv: ["--help"] })).toBeUndefined();
    expect(readFileSync(join(dir, "helpPages.json"), "utf8")).toBe("{not json");
  });
});
