/**
 * Test harness: the local stack from anvil-fixtures plus a facilitator daemon started in-process from a
 * variant of the stack's generated config, talking real HTTP and a real chain. Test-only code.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestPayer, readEnvFile, type SingleTeleportVerifierKind, startStack, waitFor, type RunningStack } from "@svc/anvil-fixtures";
import {
  fromChallengeOffer,
  offerRequirements,
  zerc20TokenAbi,
  type ChallengeOffer,
  type PaymentRequirements,
  type PermitPayload,
  type ProtocolVersion,
} from "@svc/scheme";
import { parse, stringify } from "smol-toml";
import { createPublicClient, http, type Hex, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import { startDaemon, type RunningDaemon, type StartDaemonOptions } from "../daemon/startDaemon.js";

/** A stack in a temp folder. */
export type TestStack = RunningStack & { dir: string; client: PublicClient; env: Record<string, string>; close: () => Promise<void> };

/**
 * Starts the local stack in a fresh temp folder; the root job is off unless `rootIntervalMs` is given. The
 * deployed protocol version by default; a suite that tests something version-independent and issues many
 * offers may take `zerc20-v1`, whose burn addresses cost a sixteenth of v2's (v1 tokens have no permit).
 * `singleTeleportVerifier: "groth16"` deploys the verifier of real single-teleport proofs, and the stack's
 * configuration (the base of every test daemon's) proves them with the snarkjs adapter: seconds of CPU a mint.
 */
export async function startTestStack(
  options: { rootIntervalMs?: number; protocol?: ProtocolVersion; singleTeleportVerifier?: SingleTeleportVerifierKind } = {},
): Promise<TestStack> {
  const dir = await mkdtemp(join(tmpdir(), "facilitator-test-"));
  const stack = await startStack({
    dir,
    rootIntervalMs: options.rootIntervalMs ?? 0,
    protocol: options.protocol,
    singleTeleportVerifier: options.singleTeleportVerifier,
  });
  const env = await readEnvFile(stack.files.facilitatorEnv);
  const client = createPublicClient({ chain: foundry, transport: http(stack.deployment.rpcUrl) }) as PublicClient;
  return {
    ...stack,
    dir,
    client,
    env,
    close: async () => {
      await stack.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Changes to the generated config: `{ settlement: { challenge_ttl_seconds: 2 } }`; `null` deletes a key. */
export type ConfigPatch = Record<string, Record<string, unknown> | string | null>;

/** Writes a config variant next to the stack's and returns its path. */
export async function writeConfigVariant(stack: TestStack, name: string, patch: ConfigPatch): Promise<string> {
  const config = parse(await readFile(stack.files.facilitatorToml, "utf8")) as Record<string, unknown>;
  config.listen = { ...(config.listen as object), port: 0 };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete config[key];
    else if (typeof value === "string") config[key] = value;
    else {
      const table = { ...((config[key] as Record<string, unknown> | undefined) ?? {}) };
      for (const [inner, innerValue] of Object.entries(value)) {
        if (innerValue === null) delete table[inner];
        else table[inner] = innerValue;
      }
      config[key] = table;
    }
  }
  const path = join(stack.dir, `${name}.toml`);
  await writeFile(path, stringify(config));
  return path;
}

/** A daemon started from a config variant, with its log lines captured. */
export type TestDaemon = RunningDaemon & { logs: string[]; configPath: string };

/** Starts the daemon in-process on a free port. */
export async function startTestDaemon(
  stack: TestStack,
  name: string,
  patch: ConfigPatch = {},
  env: Record<string, string | undefined> = stack.env,
  options: Pick<StartDaemonOptions, "history"> = {},
): Promise<TestDaemon> {
  const settlement = { journal: `${name}.journal.jsonl`, permit_receipt_timeout_ms: 2000, ...(patch.settlement as object | undefined) };
  const daemon = { burn_address_pool_size: 2, ...(patch.daemon as object | undefined) };
  const configPath = await writeConfigVariant(stack, name, { ...patch, settlement, daemon });
  const logs: string[] = [];
  const running = await startDaemon({ configPath, env, write: (line) => logs.push(line), ...options });
  return { ...running, logs, configPath };
}

/** POSTs JSON (with extra `headers`, such as a provider key) and returns status and parsed body. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Requests an offer (with extra `headers`, such as a provider key) and shapes it as the 402's requirements
 * with the scheme's own codecs, as the provider plugin does.
 */
export async function requestOffer(daemon: Pick<RunningDaemon, "url">, amount = "1000", headers: Record<string, string> = {}): Promise<PaymentRequirements> {
  const { status, body } = await postJson(`${daemon.url}/challenge`, { amount }, headers);
  if (status !== 200) throw new TypeError(`challenge answered ${status}: ${JSON.stringify(body)}`);
  const offer = fromChallengeOffer(body as ChallengeOffer);
  return offerRequirements(offer, Math.max(1, offer.expiresAt - Math.floor(Date.now() / 1000)));
}

/** Signs both permit-path signatures for `requirements` with the payer key (the kit's test payer). */
export function signPermitPayment(stack: TestStack, requirements: PaymentRequirements, payerKey: Hex): Promise<PermitPayload> {
  return createTestPayer({ rpcUrl: stack.deployment.rpcUrl, privateKey: payerKey }).signPermit(requirements);
}

/** Broadcasts the payer's own burn transfer and waits for its receipt (the kit's test payer). */
export function broadcastBurn(stack: TestStack, requirements: PaymentRequirements, payerKey: Hex, amount = BigInt(requirements.amount)): Promise<Hex> {
  return createTestPayer({ rpcUrl: stack.deployment.rpcUrl, privateKey: payerKey }).burn(requirements, amount);
}

/** The `/verify` and `/settle` body for a payload against requirements. */
export function facilitatorBody(requirements: PaymentRequirements, payload: object, accepted: PaymentRequirements = requirements) {
  return { x402Version: 2, paymentPayload: { x402Version: 2, accepted, payload }, paymentRequirements: requirements };
}

/** GETs an admin route with the stack's admin token. */
export async function adminGet(stack: TestStack, daemon: RunningDaemon, path: string): Promise<any> {
  const response = await fetch(`${daemon.url}${path}`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
  return response.json();
}

/** Waits until the admin surface lists `challengeNonce` in `state` (default timeout 30 s). */
export function waitForState(stack: TestStack, daemon: RunningDaemon, challengeNonce: string, state: string, timeoutMs = 30_000): Promise<any> {
  return waitFor(
    async () => {
      const { settlements } = await adminGet(stack, daemon, `/admin/settlements?state=${state}`);
      return (settlements as { challengeNonce: string }[]).find((candidate) => candidate.challengeNonce === challengeNonce);
    },
    { what: `${challengeNonce} in ${state}`, timeoutMs },
  );
}

/** zERC20 balance of an address. */
export function balanceOf(stack: TestStack, address: Hex): Promise<bigint> {
  return stack.client.readContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [address] });
}
