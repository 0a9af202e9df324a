import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStack, type RunningStack } from "@svc/anvil-fixtures";
import { selectPoseidon } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { runStart, type RunStartParameters } from "./start.js";
import { closedPort, readEnvFile, writeConfigVariant } from "./testing/stackFiles.js";

let dir: string;
let stack: RunningStack;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-start-"));
  stack = await startStack({ dir, facilitatorPort: 0 });
  env = await readEnvFile(stack.files.facilitatorEnv);
});

afterAll(async () => {
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

type StartRun = {
  exit: Promise<number>;
  lines: string[];
  errors: string[];
  /** Resolves with the `started` event, or rejects when runStart ends without one. */
  started: () => Promise<Record<string, unknown>>;
  requestStop: () => void;
};

function start(overrides: Partial<RunStartParameters> = {}): StartRun {
  const lines: string[] = [];
  const errors: string[] = [];
  let requestStop = () => {};
  const stopRequested = new Promise<void>((resolve) => {
    requestStop = resolve;
  });
  let onStarted: (event: Record<string, unknown>) => void = () => {};
  const startedEvent = new Promise<Record<string, unknown>>((resolve) => {
    onStarted = resolve;
  });
  const exit = runStart({
    configPath: stack.files.facilitatorToml,
    env,
    write: (line) => {
      lines.push(line);
      const event = parseEvent(line);
      if (event["event"] === "started") onStarted(event);
    },
    writeError: (text) => errors.push(text),
    stopRequested,
    ...overrides,
  });
  // Built on demand: an unobserved rejection would fail the run for tests that expect startup to fail.
  const started = () =>
    Promise.race([
      startedEvent,
      exit.then((code): never => {
        throw new Error(`runStart ended with ${code} before the started event: ${errors.join("")}`);
      }),
    ]);
  return { exit, lines, errors, started, requestStop };
}

function parseEvent(line: string): Record<string, unknown> {
  const value: unknown = JSON.parse(line);
  return typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value)) : {};
}

describe("runStart", () => {
  it("runs the daemon until the stop request, then stops it and returns 0", async () => {
    const run = start();
    const started = await run.started();
    expect(started).toMatchObject({ level: "info", event: "started", chain_id: 31337, poseidon: "native" });
    // The stack's environment forces no path: the fastest this processor has.
    expect(started["poseidon_path"]).toBe(selectPoseidon("native").implementation.path);
    expect(started["listen"]).toMatch(/^127\.0\.0\.1:\d+$/);
    const health = await fetch(`http://${String(started["listen"])}/healthz`);
    expect(health.status).toBe(200);

    run.requestStop();
    expect(await run.exit).toBe(0);
    expect(run.errors).toEqual([]);
    const events = run.lines.map((line) => parseEvent(line)["event"]);
    expect(events.at(-1)).toBe("stopped");
    expect(events).toContain("stopping");
    const output = run.lines.join("").toLowerCase();
    for (const secret of [env["SVC_TREASURY_PK"], env["SVC_RELAYER_PK"], env["SVC_ADMIN_TOKEN"]]) {
      expect(secret).toBeDefined();
      expect(output).not.toContain(String(secret).toLowerCase().replace(/^0x/, ""));
    }
    // The daemon is gone: its port no longer answers.
    await expect(fetch(`http://${String(started["listen"])}/healthz`)).rejects.toThrow();
  });

  it("prints one line naming a missing secret and returns 1", async () => {
    const { SVC_RELAYER_PK: _relayer, ...withoutRelayer } = env;
    const run = start({ env: withoutRelayer });
    expect(await run.exit).toBe(1);
    expect(run.errors).toEqual(["facilitator failed to start: SVC_RELAYER_PK is not set.\n"]);
  });

  it("derives on the path SVC_POSEIDON_PATH forces and says so in started", async () => {
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, { daemon: { burn_address_pool_size: 1 } });
    const run = start({ configPath, env: { ...env, SVC_POSEIDON_PATH: "portable" } });
    const started = await run.started();
    run.requestStop();
    expect(await run.exit).toBe(0);
    expect(started).toMatchObject({ poseidon: "native", poseidon_path: "portable" });
  });

  it("refuses an invalid SVC_POSEIDON_PATH before it opens anything, naming the variable, never the value", async () => {
    const run = start({ env: { ...env, SVC_POSEIDON_PATH: "warp-drive-4711" } });
    expect(await run.exit).toBe(1);
    expect(run.errors).toEqual(["facilitator failed to start: SVC_POSEIDON_PATH must be one of auto, avx512-ifma, avx2, mulx-adx, portable.\n"]);
    expect(run.lines).toHaveLength(1);
    expect(parseEvent(run.lines[0] ?? "{}")).toMatchObject({ level: "error", event: "start_failed", error: "InvalidPoseidonPathError" });
    expect([...run.lines, ...run.errors].join("")).not.toContain("warp-drive-4711");
  });

  it("refuses a deployment of the other protocol version before it derives a single burn address", async () => {
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, { network: { protocol: "zerc20-v1" } });
    const run = start({ configPath });
    expect(await run.exit).toBe(1);
    expect(run.errors).toEqual(["facilitator failed to start: network.protocol is zerc20-v1 but the deployment at network.verifier runs zerc20-v2.\n"]);
    expect(run.lines.some((line) => parseEvent(line)["event"] === "burn_address_stock_restored")).toBe(false);
  });

  it("prints one line naming the refused development key, never its value", async () => {
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, { profile: "production" });
    const run = start({ configPath });
    expect(await run.exit).toBe(1);
    expect(run.errors).toEqual(["facilitator failed to start: SVC_TREASURY_PK is a well-known development key, refused because the profile is not `local`.\n"]);
  });

  it("prints one line for an unreachable RPC without the credentials in its URL", async () => {
    const port = await closedPort();
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, {
      network: { rpc_url: `http://127.0.0.1:${port}/?apikey=rpc-provider-secret-4711` },
    });
    const run = start({ configPath });
    expect(await run.exit).toBe(1);
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]).toMatch(/^facilitator failed to start: .+\n$/);
    expect(run.errors.join("")).not.toContain("rpc-provider-secret-4711");
    // The log stream gets one start_failed event naming the redacted URL and the system error.
    expect(run.lines).toHaveLength(1);
    const failed = parseEvent(run.lines[0] ?? "{}");
    expect(failed).toMatchObject({ level: "error", event: "start_failed", url: `http://127.0.0.1:${port}/?apikey=***`, errno: "ECONNREFUSED" });
    expect(run.lines.join("")).not.toContain("rpc-provider-secret-4711");
  });

  it("logs start_failed with EADDRINUSE when the listen port is taken", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const configPath = await writeConfigVariant(stack.files.facilitatorToml, { listen: { port }, daemon: { burn_address_pool_size: 1 } });
      const run = start({ configPath });
      expect(await run.exit).toBe(1);
      expect(run.errors).toEqual([`facilitator failed to start: cannot listen on 127.0.0.1:${port} (EADDRINUSE)\n`]);
      const failed = parseEvent(run.lines.at(-1) ?? "{}");
      expect(failed).toMatchObject({
        level: "error",
        event: "start_failed",
        error: "ListenError",
        errno: "EADDRINUSE",
        cause: `cannot listen on 127.0.0.1:${port}`,
      });
      expect(typeof failed["ts"]).toBe("string");
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  it("honours --log-level over daemon.log_level and keeps the started marker at any level", async () => {
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, { daemon: { log_level: "debug", burn_address_pool_size: 1 } });
    const run = start({ configPath, logLevel: "warn" });
    await run.started();
    run.requestStop();
    expect(await run.exit).toBe(0);
    const levels = new Set(run.lines.map((line) => parseEvent(line)["level"]));
    const events = run.lines.map((line) => parseEvent(line)["event"]);
    expect(events).toContain("started");
    // Only warnings (the stack's development keys) and the marker: no info line such as journal_restored or stopped.
    expect(events).not.toContain("journal_restored");
    expect(events).not.toContain("stopped");
    expect([...levels].sort()).toEqual(["info", "warn"]);
  });

  it("writes readable lines with pretty, redacted like the JSON ones", async () => {
    const configPath = await writeConfigVariant(stack.files.facilitatorToml, { daemon: { burn_address_pool_size: 1 } });
    const lines: string[] = [];
    const exit = runStart({ configPath, env, write: (line) => lines.push(line), writeError: () => undefined, pretty: true, stopRequested: Promise.resolve() });
    expect(await exit).toBe(0);
    const started = lines.find((line) => / INFO {2}started /.test(line));
    expect(started).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}started listen=127\.0\.0\.1:\d+ chain_id=31337 /);
    expect(lines.join("")).not.toContain(String(env["SVC_TREASURY_PK"]).slice(2));
  });

  it("reports a daemon that fails to stop and returns 1", async () => {
    const run = start({
      start: async () => ({
        listen: "127.0.0.1:1",
        url: "http://127.0.0.1:1",
        finalizeOnce: async () => undefined,
        stop: async () => {
          throw new Error(`journal close failed for ${env["SVC_ADMIN_TOKEN"] ?? ""}`);
        },
      }),
    });
    run.requestStop();
    expect(await run.exit).toBe(1);
    expect(run.errors).toEqual(["facilitator did not stop cleanly: Error: journal close failed for [redacted]\n"]);
  });
});
