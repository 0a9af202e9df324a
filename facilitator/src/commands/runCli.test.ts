import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { startStack, type RunningStack } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EXIT_USAGE, runCli } from "./runCli.js";
import { readEnvFile, writeConfigVariant } from "./testing/stackFiles.js";

const CLI_PATH = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
const MISSING_BUILD = "facilitator/dist/cli.js is missing: run `tsc -b` (`make build`) before the tests; `make test` builds first";

type Collected = { code: number; stdout: string; stderr: string };

/** Runs the command line in-process with collecting streams. */
async function cli(argv: string[], env: Record<string, string | undefined> = {}): Promise<Collected> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        append(chunk.toString());
        callback();
      },
    });
  const code = await runCli(argv, {
    env,
    stdin: process.stdin,
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    colorDepth: 1,
  });
  return { code, stdout, stderr };
}

describe("runCli argument handling", () => {
  it.each([
    ["an unknown command", ["deploy"], "facilitator check --config <path>"],
    ["check without --config", ["check"], "facilitator check --config <path>"],
    ["start without --config", ["start"], "facilitator start --config <path>"],
    ["an unknown option", ["check", "--config", "x.toml", "--verbose"], "facilitator check --config <path>"],
  ])("exits 2 on %s and shows the usage on stderr", async (_label, argv, usage) => {
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^Unknown Syntax Error: /);
    expect(stderr).toContain(usage);
  });

  it("exits 2 without a command and lists the commands on stderr", async () => {
    const { code, stdout, stderr } = await cli([]);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe("");
    expect(stderr).toContain("facilitator check --config <path>");
    expect(stderr).toContain("facilitator start --config <path>");
  });

  it("exits 2 on an empty --config and a malformed --timeout-ms", async () => {
    const empty = await cli(["check", "--config", ""]);
    expect(empty.code).toBe(EXIT_USAGE);
    expect(empty.stderr).toMatch(/^Usage Error: --config needs the path of a TOML file\n/);
    const timeout = await cli(["check", "--config", "x.toml", "--timeout-ms", "soon"]);
    expect(timeout.code).toBe(EXIT_USAGE);
    expect(timeout.stderr).toMatch(/^Usage Error: --timeout-ms must be a whole number of milliseconds/);
  });

  it("prints the version and the help, exiting 0", async () => {
    const version = await cli(["--version"]);
    expect(version).toEqual({ code: 0, stdout: "0.1.0\n", stderr: "" });
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("facilitator check --config <path>");
    expect(help.stdout).toContain("facilitator start --config <path>");
    const checkHelp = await cli(["check", "--help"]);
    expect(checkHelp.code).toBe(0);
    expect(checkHelp.stdout).toContain("Probe a facilitator configuration before starting the daemon");
  });

  it("exits 1 when check finds problems, with the findings on stdout", async () => {
    const { code, stdout, stderr } = await cli(["check", "--config", join(tmpdir(), "svc-no-such-config.toml")]);
    expect(code).toBe(1);
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^✗ config: Cannot read configuration file /);
    // The file, SVC_TREASURY_PK and SVC_RELAYER_PK; the admin token is optional until a config requires it.
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("check failed: 3 problems");
  });
});

describe("the built CLI", () => {
  let dir: string | undefined;
  let stack: RunningStack;
  let env: Record<string, string | undefined> = {};

  beforeAll(async () => {
    // Never skipped: without the build this suite fails, with this message.
    if (!existsSync(CLI_PATH)) throw new Error(MISSING_BUILD);
    dir = await mkdtemp(join(tmpdir(), "svc-cli-"));
    stack = await startStack({ dir, facilitatorPort: 0 });
    // Only the stack's secrets: none inherited from the shell that runs the tests.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SVC_")));
    env = { ...inherited, ...(await readEnvFile(stack.files.facilitatorEnv)) };
  });

  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("checks the stack configuration and exits 0", async () => {
    const child = spawn(process.execPath, [CLI_PATH, "check", "--config", stack.files.facilitatorToml], { env });
    const { code, stdout, stderr } = await collect(child);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^✓ configuration checks out/);
  });

  it("exits 1 with one crossed line per problem", async () => {
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, { network: { chain_id: 5 } });
    const child = spawn(process.execPath, [CLI_PATH, "check", "--config", configPath], { env });
    const { code, stdout } = await collect(child);
    expect(code).toBe(1);
    const crossed = stdout.split("\n").filter((line) => line.startsWith("✗"));
    expect(crossed).toHaveLength(4);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("check failed: 4 problems");
  });

  it("starts the daemon, logs started, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [CLI_PATH, "start", "--config", stack.files.facilitatorToml], { env });
    const result = collect(child);
    const started = await new Promise<Record<string, unknown>>((resolve, reject) => {
      let buffer = "";
      child.stdout.on("data", (chunk: Buffer) => {
        buffer += chunk.toString();
        for (const line of buffer.split("\n").slice(0, -1)) {
          const event = parseEvent(line);
          if (event["event"] === "started") resolve(event);
        }
      });
      child.on("exit", (code) => reject(new Error(`start exited with ${String(code)} before the started event`)));
    });
    expect(started).toMatchObject({ event: "started", chain_id: 31337 });
    expect((await fetch(`http://${String(started["listen"])}/healthz`)).status).toBe(200);
    child.kill("SIGTERM");
    const { code, stdout, stderr } = await result;
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(parseEvent(stdout.trimEnd().split("\n").at(-1) ?? "{}")["event"]).toBe("stopped");
  });

  it("exits 1 with one line on stderr when startup fails", async () => {
    const { SVC_TREASURY_PK: _treasury, ...withoutTreasury } = env;
    const child = spawn(process.execPath, [CLI_PATH, "start", "--config", stack.files.facilitatorToml], {
      env: withoutTreasury,
    });
    const { code, stdout, stderr } = await collect(child);
    expect(code).toBe(1);
    // One start_failed event on the log stream, one line for people on stderr.
    expect(stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(parseEvent(stdout)).toMatchObject({ level: "error", event: "start_failed", error: "MissingSecretError", cause: "SVC_TREASURY_PK is not set." });
    expect(stderr).toBe("facilitator failed to start: SVC_TREASURY_PK is not set.\n");
  });
});

function collect(child: ReturnType<typeof spawn>): Promise<Collected> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function parseEvent(line: string): Record<string, unknown> {
  const value: unknown = JSON.parse(line);
  return typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value)) : {};
}
