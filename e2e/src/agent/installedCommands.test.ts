/**
 * The commands the READMEs tell a user to type: after `make build`, `svc-agent` and `svc-facilitator` run by
 * those names from `bin/` on PATH, and from a link elsewhere (what `make install-commands` makes), and
 * their help names the command as installed.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO_BIN = fileURLToPath(new URL("../../../bin", import.meta.url));
const run = promisify(execFile);

let linkDir: string;
beforeAll(async () => {
  linkDir = await mkdtemp(join(tmpdir(), "svc-agent-bin-"));
  await symlink(join(REPO_BIN, "svc-agent"), join(linkDir, "svc-agent"));
  await symlink(join(REPO_BIN, "svc-facilitator"), join(linkDir, "svc-facilitator"));
});
afterAll(() => rm(linkDir, { recursive: true, force: true }));

describe.each([
  ["bin/ on PATH", () => REPO_BIN],
  ["links in another folder", () => linkDir],
])("installed commands from %s", (_label, folder) => {
  it("run as svc-agent and svc-facilitator, and their help names those commands", async () => {
    const env = { PATH: `${folder()}:${process.env.PATH ?? ""}`, HOME: tmpdir() };
    const agent = await run("sh", ["-c", "svc-agent --version && svc-agent --help"], { env });
    expect(agent.stdout).toMatch(/^0\.1\.0\n/);
    expect(agent.stdout).toContain("  svc-agent pay [--json] [--base-units] <url>");
    const facilitator = await run("sh", ["-c", "svc-facilitator --help"], { env });
    expect(facilitator.stdout).toContain("$ svc-facilitator <command>");
    expect(facilitator.stdout).toContain("  svc-facilitator check --config <path>");
    expect(facilitator.stdout).not.toMatch(/(^|[$ ])facilitator (check|start|<command>)/m);
  });
});
