/**
 * `facilitator status --watch` against a live daemon on a real stack: frames redrawn in place that follow the
 * daemon's state, JSON lines for scripts, a daemon that cannot be read shown and read again, and the usage
 * mistakes.
 */
import { Writable } from "node:stream";
import { waitFor } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { requestOffer, startTestDaemon, startTestStack, type TestDaemon, type TestStack } from "../testing/localFacilitator.js";
import { EXIT_USAGE, runCli } from "./runCli.js";
import { CLEAR_SCREEN, watchStatus, type WatchStatusParameters } from "./watchStatus.js";

let stack: TestStack;
let daemon: TestDaemon;

beforeAll(async () => {
  stack = await startTestStack();
  daemon = await startTestDaemon(stack, "watch", { daemon: { finalize_interval_ms: 600_000 } });
});

afterAll(async () => {
  await daemon?.stop();
  await stack?.close();
});

/** Starts a watch collecting what it writes; `stop` aborts it and resolves to its exit code. */
function startWatch(overrides: Partial<WatchStatusParameters>) {
  const frames: string[] = [];
  const errors: string[] = [];
  const controller = new AbortController();
  const done = watchStatus({
    configPath: daemon.configPath,
    env: stack.env,
    url: daemon.url,
    intervalMs: 100,
    inPlace: true,
    signal: controller.signal,
    write: (text) => frames.push(text),
    writeError: (text) => errors.push(text),
    ...overrides,
  });
  return {
    frames,
    errors,
    stop: () => {
      controller.abort();
      return done;
    },
  };
}

const openChallengesOf = (frame: string) => Number(/^open challenges: (\d+)$/m.exec(frame)?.[1]);

describe("facilitator status --watch", () => {
  it("redraws the screen in place with each read, following the daemon, and ends with 0 when stopped", async () => {
    const watch = startWatch({});
    try {
      const first = await waitFor(() => watch.frames[0], { what: "the first frame", timeoutMs: 10_000 });
      const before = openChallengesOf(first);
      expect(before).toBeGreaterThanOrEqual(0);
      await requestOffer(daemon, "1000");
      await waitFor(() => watch.frames.some((frame) => openChallengesOf(frame) === before + 1), { what: "a frame with the new offer", timeoutMs: 10_000 });
    } finally {
      expect(await watch.stop()).toBe(0);
    }
    expect(watch.errors).toEqual([]);
    for (const frame of watch.frames) {
      expect(frame.startsWith(CLEAR_SCREEN)).toBe(true);
      expect(frame).toMatch(/^\u001b\[H\u001b\[2J\d{2}:\d{2}:\d{2} UTC, every 0\.1 s \(Ctrl-C to stop\)\n\nfacilitator at /);
      expect(frame).toContain("readiness: ready");
    }
  });

  it("writes one JSON line per read with --json", async () => {
    const watch = startWatch({ format: "json", inPlace: false });
    await waitFor(() => watch.frames.length >= 2 || undefined, { what: "two reads", timeoutMs: 10_000 });
    expect(await watch.stop()).toBe(0);
    for (const line of watch.frames) {
      expect(line.endsWith("\n")).toBe(true);
      const parsed = JSON.parse(line);
      expect(Date.parse(parsed.at)).toBeGreaterThan(0);
      expect(parsed.status.readiness.status).toBe("ready");
    }
  });

  it("shows a daemon it cannot read in the frame and reads again", async () => {
    const watch = startWatch({ url: "http://127.0.0.1:9", inPlace: false });
    await waitFor(() => watch.frames.length >= 2 || undefined, { what: "two failed reads", timeoutMs: 30_000 });
    expect(await watch.stop()).toBe(0);
    for (const frame of watch.frames) expect(frame).toMatch(/^--- \d{2}:\d{2}:\d{2} UTC ---\ncannot read the daemon: .+ \(trying again every 0\.1 s\)\n$/);
  });

  it("exits 1 at once for a configuration it cannot read, and 2 for a bad --interval or one without --watch", async () => {
    const watch = startWatch({ configPath: `${stack.dir}/missing.toml` });
    expect(await watch.stop()).toBe(1);
    expect(watch.frames).toEqual([]);
    expect(watch.errors.join("")).toMatch(/^facilitator status: /);

    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const run = (argv: string[]) =>
      runCli(["status", "--config", daemon.configPath, "--url", daemon.url, ...argv], {
        env: stack.env,
        stdin: process.stdin,
        stdout: sink,
        stderr: sink,
        colorDepth: 1,
      });
    expect(await run(["--interval", "1"])).toBe(EXIT_USAGE);
    expect(await run(["--watch", "--interval", "0.1"])).toBe(EXIT_USAGE);
    expect(await run(["--watch", "--interval", "soon"])).toBe(EXIT_USAGE);
  });
});
