/**
 * `facilitator status` against a live daemon on a real stack: the summary, `--json`, a rejected token, and a
 * daemon whose RPC went away.
 */
import { Writable } from "node:stream";
import { waitFor } from "@svc/anvil-fixtures";
import { selectPoseidon } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { DaemonStatus } from "../operator/fetchDaemonStatus.js";
import { formatDaemonStatus } from "../operator/formatDaemonStatus.js";
import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";
import { startStoppableRpcProxy, type StoppableRpcProxy } from "../testing/stoppableRpcProxy.js";
import { EXIT_USAGE, runCli } from "./runCli.js";

let stack: TestStack;
let proxy: StoppableRpcProxy;
let daemon: TestDaemon;
// The test daemon's environment forces no path: the fastest this processor has.
const fastestPath = selectPoseidon("native").implementation.path;

beforeAll(async () => {
  stack = await startTestStack();
  proxy = await startStoppableRpcProxy(stack.deployment.rpcUrl);
  daemon = await startTestDaemon(stack, "status", { network: { rpc_url: proxy.url }, daemon: { finalize_interval_ms: 600_000 } });
  const requirements = await requestOffer(daemon, "2500");
  const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
  const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
  expect(settled.body.success).toBe(true);
});

afterAll(async () => {
  await daemon?.stop();
  await proxy?.stop();
  await stack?.close();
});

async function status(argv: string[], env: Record<string, string | undefined> = stack.env) {
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        append(chunk.toString());
        callback();
      },
    });
  const code = await runCli(["status", "--config", daemon.configPath, "--url", daemon.url, ...argv], {
    env,
    stdin: process.stdin,
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    colorDepth: 1,
  });
  return { code, stdout, stderr };
}

describe("facilitator status", () => {
  it("summarises a ready daemon with its backlog, stock and balances", async () => {
    const { code, stdout, stderr } = await status([]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    // Printed URLs pass the credential redactor, which writes them in WHATWG form (trailing slash).
    expect(lines[0]).toBe(`facilitator at ${daemon.url}/ (profile local, chain 31337)`);
    expect(lines[1]).toBe("readiness: ready");
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}accepted +1 {2}oldest \d+s$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}failed +0$/));
    expect(lines).toContain("failed entries: none");
    expect(lines).toContain("late burns: none");
    // The test daemon keeps two addresses at least and, by default, four times that at most.
    expect(lines).toContainEqual(expect.stringMatching(/^burn-address stock: \d+ ready, \d+ deriving, target [2-8] \(2\.\.8\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}offers [0-9.]+\/s, derivations [0-9.]+\/s: lasts indefinitely at the current rate$/));
    expect(lines).toContain(`poseidon: native, path ${fastestPath}`);
    expect(lines).toContainEqual(expect.stringMatching(/^relayer 0x[0-9a-fA-F]{40}: [0-9.]+ ETH, queue depth 0$/));
  });

  it("prints the same facts as JSON with --json", async () => {
    const { code, stdout } = await status(["--json"]);
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed.readiness.status).toBe("ready");
    expect(parsed.status.backlog.accepted.count).toBe(1);
    expect(parsed.status.openChallenges).toBe(0);
    expect(BigInt(parsed.status.relayer.balanceWei)).toBeGreaterThan(0n);
    expect(parsed.failed).toEqual({ settlements: [], total: 0 });
    expect(parsed.status.poseidon).toEqual({ implementation: "native", path: fastestPath });
    // One offer so far, against workers that derive many a second: the stock does not run out.
    expect(parsed.status.stock).toMatchObject({ floor: 2, ceiling: 8, stopped: false, lastsSeconds: null });
    expect(parsed.status.stock.target).toBeGreaterThanOrEqual(2);
    expect(parsed.status.stock.target).toBeLessThanOrEqual(8);
    expect(parsed.status.stock.offersPerSecond).toBeGreaterThan(0);
    expect(parsed.status.stock.derivationsPerSecond).toBeGreaterThan(0);
  });

  it("names SVC_ADMIN_TOKEN, never its value, when the daemon refuses it", async () => {
    const wrong = "wrong-admin-token-but-long-enough-4711";
    const { code, stdout, stderr } = await status([], { ...stack.env, SVC_ADMIN_TOKEN: wrong });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^facilitator status: the daemon refused SVC_ADMIN_TOKEN \(401\)/);
    expect(stderr).not.toContain(wrong);
  });

  it("exits 2 for a malformed --limit and 1 when nothing listens", async () => {
    expect((await status(["--limit", "0"])).code).toBe(EXIT_USAGE);
    const gone = await runCliCapture(["status", "--config", daemon.configPath, "--url", "http://127.0.0.1:1"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^facilitator status: no usable answer from the facilitator at http:\/\/127\.0\.0\.1:1\/: no answer/);
  });

  it("reports NOT READY with the failing component while the RPC is gone (last: it stops the proxy)", async () => {
    await proxy.stop();
    const result = await waitFor(
      async () => {
        const answer = await status([]);
        return answer.code === 0 ? undefined : answer;
      },
      { what: "status to see the RPC gone", timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(result.code).toBe(1);
    // The stock may be refilling at the same moment (the pool keeps two here), so only the RPC line is fixed.
    expect(result.stdout).toMatch(/\nreadiness: NOT READY \(rpc(, stock)?\)\n {2}rpc: unreachable http:\/\/127\.0\.0\.1:\d+\/\n/);
    expect(result.stdout).toContain("balance unknown (RPC did not answer)");
  });
});

describe("formatDaemonStatus", () => {
  it("lists failed entries with their reasons and says how many were left out", () => {
    const text = formatDaemonStatus(buildDaemonStatus());
    expect(text).toContain("  accepted        3  oldest 2h 2m\n");
    expect(text).toContain("  reorged         1  oldest 40s\n");
    expect(text).toContain("  failed          2  oldest 1d 1h\n");
    expect(text).toContain(`failed entries: 2 (first 1)\n  0x${"ab".repeat(32)} permit 10: chain evidence vanished: gone\n`);
    expect(text).toContain("burn-address stock: none (this profile issues no offers)\nposeidon: poseidon-lite (no search path)\n");
    expect(text).toContain("relayer 0x70997970C51812dc3A010C7d01b50e0d17dc79C8: 1.5 ETH, queue depth 2\n");
    expect(text).toContain("treasury 0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0: balance unknown (RPC did not answer)\n");
  });

  it("shows each RPC endpoint by label and host, and how long a down one is passed by", () => {
    expect(formatDaemonStatus(buildDaemonStatus())).toContain(
      "readiness: ready\nrpc endpoints: 1 of 2 up\n" +
        "  rpc#0 https://a.example: DOWN (HttpRequestError), 5 errors, 40 skipped, next try in 4s\n" +
        "  rpc#1 https://b.example: up, 0 errors, 0 skipped\nbacklog:\n",
    );
  });

  it("shows the stock's target within its bounds, both rates, and how long it lasts", () => {
    const stock = {
      stocked: 3,
      deriving: 2,
      derived: 90,
      stopped: false,
      floor: 16,
      ceiling: 64,
      target: 24,
      offersPerSecond: 4.5,
      derivationsPerSecond: 2.254,
      lastsSeconds: 80.7,
    };
    expect(formatDaemonStatus(buildDaemonStatus({ stock }))).toContain(
      "burn-address stock: 3 ready, 2 deriving, target 24 (16..64)\n  offers 4.5/s, derivations 2.25/s: lasts 1m 20s at the current rate\n",
    );
    const idle = { ...stock, offersPerSecond: 0, derivationsPerSecond: null, lastsSeconds: null, stopped: true };
    expect(formatDaemonStatus(buildDaemonStatus({ stock: idle }))).toContain(
      "burn-address stock: 3 ready, 2 deriving, target 24 (16..64), POOL STOPPED\n  offers 0/s, derivations not timed yet: lasts indefinitely at the current rate\n",
    );
  });

  it("counts the mints released alone, says why they matter, and prints nothing for a daemon that does not report them", () => {
    expect(formatDaemonStatus(buildDaemonStatus({ finalize: { releasedAlone: 2 } }))).toContain(
      "open challenges: 0\nreleased alone: 2  (minted at max_delay without k mature same-amount payments: linkable)\n",
    );
    expect(formatDaemonStatus(buildDaemonStatus({ finalize: { releasedAlone: 0 } }))).toContain("open challenges: 0\nreleased alone: 0\n");
    expect(formatDaemonStatus(buildDaemonStatus())).not.toContain("released alone");
  });

  it("counts the real leaves sent short of decoys, says what that means, and prints nothing for a daemon that does not report them", () => {
    expect(formatDaemonStatus(buildDaemonStatus({ finalize: { releasedAlone: 0, decoysShort: 3 } }))).toContain(
      "released alone: 0\nleaves short of decoys: 3  (sent to the indexer with fewer than 3 same-value decoys)\n",
    );
    expect(formatDaemonStatus(buildDaemonStatus({ finalize: { releasedAlone: 0, decoysShort: 0 } }))).toContain("leaves short of decoys: 0\n");
    expect(formatDaemonStatus(buildDaemonStatus({ finalize: { releasedAlone: 0 } }))).not.toContain("short of decoys");
  });

  it("shows the followed transfer tree's height against the chain, its leaves behind and the last root checked", () => {
    const witnesses = { leaves: 120, leavesBehind: 8, provedIndex: 128, lastCheckedIndex: 120, nextBlock: 5_001, finalBlock: 5_040, trackedPaths: 2 };
    expect(formatDaemonStatus(buildDaemonStatus({ witnesses }))).toContain(
      "witnesses (self): 120 leaves, 8 behind proved index 128, root checked at 120; next block 5001 of final 5040; 2 paths kept\n",
    );
    const fresh = { ...witnesses, leaves: 0, leavesBehind: 0, provedIndex: null, lastCheckedIndex: null, finalBlock: null, trackedPaths: 0 };
    expect(formatDaemonStatus(buildDaemonStatus({ witnesses: fresh }))).toContain(
      "witnesses (self): 0 leaves, proved index not read yet, no root checked yet; next block 5001; 0 paths kept\n",
    );
    expect(formatDaemonStatus(buildDaemonStatus())).not.toContain("witnesses");
  });
});

function buildDaemonStatus(overrides: Partial<DaemonStatus["status"]> = {}): DaemonStatus {
  return {
    url: "http://127.0.0.1:4032",
    readiness: { status: "ready", components: { rpc: { ready: true }, indexer: { ready: true }, journal: { ready: true }, stock: { ready: true } } },
    status: {
      profile: "local",
      chainId: 31337,
      backlog: {
        intent: { count: 0, oldestAgeSeconds: null },
        accepted: { count: 3, oldestAgeSeconds: 7_325 },
        reorged: { count: 1, oldestAgeSeconds: 40 },
        finalized: { count: 0, oldestAgeSeconds: null },
        failed: { count: 2, oldestAgeSeconds: 90_061 },
        late_burn: { count: 0, oldestAgeSeconds: null },
      },
      openChallenges: 0,
      rpcEndpoints: [
        {
          endpoint: "rpc#0",
          origin: "https://a.example",
          up: false,
          consecutiveFailures: 3,
          errors: 5,
          skips: 40,
          retryInMs: 3_500,
          lastError: "HttpRequestError",
        },
        { endpoint: "rpc#1", origin: "https://b.example", up: true, consecutiveFailures: 0, errors: 0, skips: 0, retryInMs: null, lastError: null },
      ],
      stock: null,
      poseidon: { implementation: "poseidon-lite", path: null },
      relayer: { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", balanceWei: "1500000000000000000", queueDepth: 2 },
      treasury: { address: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0", balanceWei: null },
      ...overrides,
    },
    failed: {
      settlements: [
        {
          challengeNonce: `0x${"ab".repeat(32)}`,
          state: "failed",
          path: "permit",
          amount: "10",
          burnTxHash: `0x${"cd".repeat(32)}`,
          reason: "chain evidence vanished: gone",
        },
      ],
      total: 2,
    },
    lateBurns: { settlements: [], total: 0 },
  };
}

async function runCliCapture(argv: string[]) {
  let stderr = "";
  const code = await runCli(argv, {
    env: stack.env,
    stdin: process.stdin,
    stdout: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
    stderr: new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        stderr += chunk.toString();
        callback();
      },
    }),
    colorDepth: 1,
  });
  return { code, stderr };
}
