import { homedir } from "node:os";
import { join, resolve } from "node:path";

import { AddressSchema, NetworkSchema } from "@svc/scheme";
import { isHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { PolicyConfigError } from "./errors.js";
import type { Policy } from "./policy.js";
import { parseSpendAmount, type SpendAmount } from "./spendAmount.js";

/** `SVC_RPC_URL` when unset: the local anvil. */
export const DEFAULT_RPC_URL = "http://127.0.0.1:8545";

/** `SVC_TIMEOUT_MS` when unset. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** `SVC_ALLOWED_HOSTS` when unset: loopback only, so a fresh install cannot pay a remote host by accident. */
export const DEFAULT_ALLOWED_HOSTS = ["localhost", "127.0.0.1"] as const;

/** `SVC_ALLOWED_NETWORK` when unset: the local stack's chain. */
export const DEFAULT_ALLOWED_NETWORK = "eip155:31337";

/** `SVC_APPROVAL_TIMEOUT_MS` when unset. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;

/** The state folder's name under the home directory when `SVC_STATE_DIR` is unset. */
export const DEFAULT_STATE_DIR_NAME = ".svc-agent";

/** The largest delay `setTimeout` honours; a longer timeout would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The environment as `process.env` has it. */
export type Environment = Record<string, string | undefined>;

/**
 * Reads the payer policy from the `SVC_*` variables, applying the documented defaults, and rejects any
 * malformed value with a `PolicyConfigError` naming the variable. An empty value counts as unset, the way
 * shells leave `VAR=`.
 *
 * @example
 * const policy = loadPolicy(process.env);
 */
export function loadPolicy(env: Environment, options: { homeDir?: string } = {}): Policy {
  const read = (variable: string): string | undefined => {
    const value = env[variable]?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const stateDir = read("SVC_STATE_DIR");
  return {
    payerKey: parsePayerKey(read("SVC_PAYER_PK")),
    rpcUrl: parseHttpUrl("SVC_RPC_URL", read("SVC_RPC_URL") ?? DEFAULT_RPC_URL),
    mode: parseMode(read("SVC_MODE")),
    timeoutMs: parseMilliseconds("SVC_TIMEOUT_MS", read("SVC_TIMEOUT_MS"), DEFAULT_TIMEOUT_MS),
    allowedHosts: parseHosts(read("SVC_ALLOWED_HOSTS")),
    allowedNetwork: parseWith(
      "SVC_ALLOWED_NETWORK",
      read("SVC_ALLOWED_NETWORK") ?? DEFAULT_ALLOWED_NETWORK,
      NetworkSchema,
      "a CAIP-2 network eip155:<chainId>",
    ),
    allowedToken: optional(read("SVC_ALLOWED_TOKEN"), (value) => parseWith("SVC_ALLOWED_TOKEN", value, AddressSchema, "a token address, 0x and 40 hex digits")),
    maxPerPayment: parseLimit("SVC_MAX_PER_PAYMENT", read("SVC_MAX_PER_PAYMENT")),
    maxTotal: parseLimit("SVC_MAX_TOTAL", read("SVC_MAX_TOTAL")),
    maxPerHour: parseLimit("SVC_MAX_PER_HOUR", read("SVC_MAX_PER_HOUR")),
    maxPerDay: parseLimit("SVC_MAX_PER_DAY", read("SVC_MAX_PER_DAY")),
    maxPerWeek: parseLimit("SVC_MAX_PER_WEEK", read("SVC_MAX_PER_WEEK")),
    maxPerMonth: parseLimit("SVC_MAX_PER_MONTH", read("SVC_MAX_PER_MONTH")),
    maxPerHost: parseLimit("SVC_MAX_PER_HOST", read("SVC_MAX_PER_HOST")),
    maxPerMcpSession: parseLimit("SVC_MAX_PER_MCP_SESSION", read("SVC_MAX_PER_MCP_SESSION")),
    approveAbove: parseLimit("SVC_APPROVE_ABOVE", read("SVC_APPROVE_ABOVE")),
    approvalTimeoutMs: parseMilliseconds("SVC_APPROVAL_TIMEOUT_MS", read("SVC_APPROVAL_TIMEOUT_MS"), DEFAULT_APPROVAL_TIMEOUT_MS),
    stateDir: stateDir === undefined ? join(options.homeDir ?? homedir(), DEFAULT_STATE_DIR_NAME) : resolve(stateDir),
  };
}

function optional<T>(value: string | undefined, parse: (value: string) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

function parseWith<T>(
  variable: string,
  value: string,
  schema: { safeParse: (value: unknown) => { success: true; data: T } | { success: false } },
  expected: string,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new PolicyConfigError({ variable, expected });
  return parsed.data;
}

function parsePayerKey(value: string | undefined): `0x${string}` | undefined {
  if (value === undefined) return undefined;
  const key = value.startsWith("0x") ? value : `0x${value}`;
  const expected = "a 32-byte hex private key (64 hex digits, optionally 0x-prefixed)";
  if (!isHex(key) || key.length !== 66) throw new PolicyConfigError({ variable: "SVC_PAYER_PK", expected });
  try {
    // Zero and values at or above the curve order are 32 bytes of hex but no key.
    privateKeyToAccount(key);
  } catch {
    throw new PolicyConfigError({ variable: "SVC_PAYER_PK", expected });
  }
  return key;
}

function parseHttpUrl(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PolicyConfigError({ variable, expected: "an http:// or https:// URL" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PolicyConfigError({ variable, expected: "an http:// or https:// URL" });
  }
  return value;
}

function parseMode(value: string | undefined): Policy["mode"] {
  if (value === undefined || value === "permit") return "permit";
  if (value === "self-transfer") return "self-transfer";
  throw new PolicyConfigError({ variable: "SVC_MODE", expected: "permit or self-transfer" });
}

function parseMilliseconds(variable: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const expected = `a positive integer number of milliseconds (at most ${MAX_TIMER_MS})`;
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_TIMER_MS) throw new PolicyConfigError({ variable, expected });
  return Number(value);
}

function parseLimit(variable: string, value: string | undefined): SpendAmount | undefined {
  return value === undefined ? undefined : parseSpendAmount(variable, value);
}

/** Host names are compared lower-case; `*` must stand alone so `*.example.com` is not mistaken for a pattern. */
function parseHosts(value: string | undefined): Policy["allowedHosts"] {
  if (value === undefined) return DEFAULT_ALLOWED_HOSTS;
  const hosts = value.split(",").map((host) => host.trim().toLowerCase());
  if (hosts.length === 1 && hosts[0] === "*") return "*";
  const hostName = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;
  if (hosts.some((host) => !hostName.test(host))) {
    throw new PolicyConfigError({
      variable: "SVC_ALLOWED_HOSTS",
      expected: "comma-separated host names without scheme, port or path (IPv6 in brackets), or a lone *",
    });
  }
  return hosts;
}
