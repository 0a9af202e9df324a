/**
 * Test builders for facilitator configurations: a valid local-stack table with overrides, a matching
 * environment, and a writer that puts the TOML into a fresh temporary folder. Shipped in `src` (not a test
 * file) so every test in the package can share them; nothing in the daemon imports them.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { keccak256, toHex, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";

/** A treasury key that is not a development key (derived from a fixed label, so tests are reproducible). */
export const TEST_TREASURY_PK: Hex = keccak256(toHex("svc-zerc20 test treasury key"));

/** A relayer key that is not a development key. */
export const TEST_RELAYER_PK: Hex = keccak256(toHex("svc-zerc20 test relayer key"));

/** An admin token long enough for the startup rules. */
export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

/** A configuration table (or an override of one): nested tables as plain objects. */
export type ConfigTable = { [key: string]: unknown };

/**
 * A valid configuration table (profile `local`, loopback RPC on chain 31337, custodial 1% payer fee to a
 * treasury controlled by {@link TEST_TREASURY_PK}) deep-merged with `overrides`; an override of `undefined`
 * removes the key.
 */
export function buildConfigTable(overrides: ConfigTable = {}): ConfigTable {
  const base: ConfigTable = {
    profile: "local",
    network: {
      rpc_url: "http://127.0.0.1:8545",
      indexer_url: "http://127.0.0.1:8546",
      decider_url: "http://127.0.0.1:8547",
      chain_id: 31337,
      token: "0x1111111111111111111111111111111111111111",
      verifier: "0x2222222222222222222222222222222222222222",
      hub: "0x3333333333333333333333333333333333333333",
    },
    listen: { host: "127.0.0.1", port: 4032 },
    settlement: {
      treasury: privateKeyToAddress(TEST_TREASURY_PK),
      permit_burner: "0x4444444444444444444444444444444444444444",
      journal: "journal.jsonl",
    },
    fee: {
      bps: 100,
      min_per_payment: "0",
      charge_to: "payer",
      recipient: "0x5555555555555555555555555555555555555555",
    },
  };
  return merge(base, overrides);
}

/** An environment with non-development keys and an admin token, with `overrides` applied (`undefined` unsets). */
export function buildEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    SVC_TREASURY_PK: TEST_TREASURY_PK,
    SVC_RELAYER_PK: TEST_RELAYER_PK,
    SVC_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    ...overrides,
  };
}

/** Writes `text` (or the TOML of a table) as `facilitator.toml` in a new temporary folder and returns its path. */
export async function writeConfigFile(content: string | ConfigTable): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "svc-facilitator-config-"));
  const path = join(dir, "facilitator.toml");
  await writeFile(path, typeof content === "string" ? content : stringify(content));
  return path;
}

function merge(base: ConfigTable, overrides: ConfigTable): ConfigTable {
  const result: ConfigTable = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = result[key];
    if (value === undefined) delete result[key];
    else if (isTable(value) && isTable(current)) result[key] = merge(current, value);
    else result[key] = value;
  }
  return result;
}

function isTable(value: unknown): value is ConfigTable {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
