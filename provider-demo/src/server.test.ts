/**
 * The built program, `node provider-demo/dist/server.js`, as a real child process: its readiness line, its
 * request log, its signals, and its refusals to start. The happy path runs against the real facilitator
 * process; "does not support svc-zerc20" against a second facilitator under profile `testnet`.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { type FacilitatorProcess, startFacilitatorProcess, startProcess } from "@svc/anvil-fixtures";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { offerOf, type PaymentStack, startPaymentStack, unusedLocalUrl } from "./testing/paymentStack.js";

const SERVER_JS = fileURLToPath(new URL("../dist/server.js", import.meta.url));

let payments: PaymentStack;
let testnetFacilitator: FacilitatorProcess;

beforeAll(async () => {
  if (!existsSync(SERVER_JS)) throw new TypeError(`${SERVER_JS} does not exist; run \`make build\` first`);
  payments = await startPaymentStack();
  testnetFacilitator = await startTestnetFacilitator(payments);
});

afterAll(async () => {
  await testnetFacilitator?.stop();
  await payments?.close();
});

/**
 * A facilitator under profile `testnet`: it starts, but accepts no payments, so `/supported` lists no kinds.
 * Outside `local` it refuses anvil's dev keys, so it gets fresh random ones (a minter key of its own too), and the custodial fee mode
 * needs the treasury to be the treasury key's address.
 */
async function startTestnetFacilitator(stack: PaymentStack): Promise<FacilitatorProcess> {
  const treasuryKey = generatePrivateKey();
  const localToml = await readFile(stack.stack.files.facilitatorToml, "utf8");
  const testnetToml = localToml
    .replace(/^profile = "local"$/m, 'profile = "testnet"')
    .replace(/^treasury = ".*"$/m, `treasury = "${privateKeyToAddress(treasuryKey)}"`)
    .replace(/^journal = ".*"$/m, 'journal = "testnet.journal.jsonl"')
    // Outside profile local the facilitator requires a provider table; this provider never authenticates.
    .concat(`\n[providers.demo]\nkey_sha256 = "${"0f".repeat(32)}"\n`);
  expect(testnetToml).toContain('profile = "testnet"');
  const configPath = join(stack.dir, "testnet.toml");
  await writeFile(configPath, testnetToml);
  return startFacilitatorProcess({
    configPath,
    env: {
      SVC_TREASURY_PK: treasuryKey,
      SVC_RELAYER_PK: generatePrivateKey(),
      SVC_MINTER_PK: generatePrivateKey(),
      SVC_ADMIN_TOKEN: stack.env.SVC_ADMIN_TOKEN,
    },
  });
}

/** The provider's environment: only what the test sets, so the developer's own variables never leak in. */
function providerEnv(variables: Record<string, string>): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOST: "127.0.0.1", PORT: "0", ...variables };
}

/** Runs the program until it exits, with its exit code and output. */
function runToExit(variables: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_JS], { env: providerEnv(variables), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new TypeError(`provider-demo did not exit within 30 s; stdout: ${stdout}; stderr: ${stderr}`));
    }, 30_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the program against the local facilitator and waits for its readiness line. */
async function startProvider() {
  const running = await startProcess({
    command: process.execPath,
    args: [SERVER_JS],
    env: providerEnv({ FACILITATOR_URL: payments.facilitator.url }),
    ready: (line) => line.includes('"event":"listening"'),
  });
  const readiness = running.lines.find((line) => line.includes('"event":"listening"')) ?? "";
  const listening = JSON.parse(readiness) as { url: string };
  return { ...running, readiness, url: listening.url };
}

/** Every stdout line that is a JSON object with `event`. */
const jsonEvents = (lines: readonly string[]) => lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);

describe("provider-demo as a process", () => {
  it("prints the listening line, logs one JSON line per request and exits 0 on SIGTERM", async () => {
    const provider = await startProvider();
    try {
      expect(provider.readiness).toMatch(/^\{"ts":"[^"]+","level":"info","event":"listening","url":"http:\/\/127\.0\.0\.1:[0-9]+",/);
      expect(JSON.parse(provider.readiness)).toMatchObject({ network: "eip155:31337", price: "1000000000000000" });

      const health = await fetch(`${provider.url}/healthz`);
      const weather = await fetch(`${provider.url}/weather`);
      expect(health.status).toBe(200);
      expect(weather.status).toBe(402);
      const offer = offerOf(weather);
      expect(offer.amount).toBe("1010000000000000");

      expect(await provider.stop("SIGTERM")).toBe(0);
      const requests = jsonEvents(provider.lines).filter((event) => event.event === "request");
      expect(requests).toEqual([
        expect.objectContaining({ method: "GET", path: "/healthz", status: 200 }),
        expect.objectContaining({ method: "GET", path: "/weather", status: 402, challenge_nonce: offer.extra.challengeNonce }),
      ]);
    } finally {
      await provider.stop("SIGKILL");
    }
  });

  it("exits 0 on SIGINT too", async () => {
    const provider = await startProvider();
    expect(await provider.stop("SIGINT")).toBe(0);
  });

  it("exits 1 naming the variable when the environment is invalid (every rule: loadProviderConfig.test.ts)", async () => {
    const { code, stdout, stderr } = await runToExit({ FACILITATOR_URL: payments.facilitator.url, PRICE: "0.5" });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ level: "error", event: "start_failed", error: "InvalidProviderConfigError" });
    expect(stderr).toBe(
      "provider-demo could not start: InvalidProviderConfigError: Invalid PRICE: expected a positive amount in base units as a plain decimal integer, e.g. 1000000000000000.\n",
    );
  });

  it("exits 1 with a clear message when the facilitator is unreachable", async () => {
    const deadUrl = await unusedLocalUrl();
    const { code, stderr } = await runToExit({ FACILITATOR_URL: deadUrl });
    expect(code).toBe(1);
    expect(stderr).toContain(`FacilitatorUnavailableError: The facilitator at ${deadUrl} is unreachable or failed GET /supported.`);
    expect(stderr).toContain("ECONNREFUSED");
  });

  it("exits 1 with a clear message when the facilitator does not support svc-zerc20 (profile testnet)", async () => {
    const { code, stdout, stderr } = await runToExit({ FACILITATOR_URL: testnetFacilitator.url });
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ level: "error", event: "start_failed", error: "SchemeNotSupportedError" });
    expect(stderr).toContain(`SchemeNotSupportedError: The facilitator at ${testnetFacilitator.url} does not support svc-zerc20 on eip155:31337.`);
    expect(stderr).toContain('it advertises no payment kinds; payments are accepted only under the facilitator profile "local"');
  });

  it("exits 1 when the facilitator supports svc-zerc20 only on another network", async () => {
    const { code, stderr } = await runToExit({ FACILITATOR_URL: payments.facilitator.url, NETWORK: "eip155:8453" });
    expect(code).toBe(1);
    expect(stderr).toContain("does not support svc-zerc20 on eip155:8453");
    expect(stderr).toContain("it advertises svc-zerc20 on eip155:31337 (x402 v2)");
  });
});
