import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { getAddress } from "viem";

import { FeeModeError, InvalidConfigValueError, MissingConfigKeyError, SplitterMismatchError, UnknownConfigKeyError } from "./errors.js";
import { parseConfig, safeParseConfig } from "./parseConfig.js";
import { buildConfigTable, type ConfigTable } from "./testing/buildConfig.js";

const CONFIG_DIR = "/etc/svc";

function parse(overrides: ConfigTable = {}) {
  return parseConfig(buildConfigTable(overrides), { configDir: CONFIG_DIR });
}

function errorOf(overrides: ConfigTable): unknown {
  try {
    parse(overrides);
  } catch (error) {
    return error;
  }
  throw new Error("expected parseConfig to throw");
}

const SPLITTER = getAddress("0x6666666666666666666666666666666666666666");

describe("parseConfig: a valid file", () => {
  it("parses a full configuration with every key set", () => {
    const config = parse({
      network: { confirmations: 3, finality_depth: 12, deploy_block: 1_234 },
      listen: { host: "0.0.0.0", port: 8080, trusted_proxies: ["10.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"] },
      settlement: {
        challenge_ttl_seconds: 60,
        expired_challenge_retention_seconds: 0,
        late_burn_retention_days: 30,
        permit_receipt_timeout_ms: 15_000,
        journal: "/var/lib/svc/journal.jsonl",
      },
      fee: { bps: 250, min_per_payment: 5, charge_to: "provider" },
      daemon: {
        finalize_interval_ms: 1000,
        shutdown_grace_ms: 0,
        rate_limit_per_min: 0,
        max_open_challenges: 1,
        challenge_per_key_per_min: -1,
        burn_address_pool_size: 3,
        public_metrics: true,
        log_level: "warn",
      },
      finalize: { min_delay_seconds: 60, max_delay_seconds: 1800, min_anonymity_set: 3, witnesses: "indexer" },
      gas: { replace_after_seconds: 12.5, max_fee_gwei: 150 },
      history: { retention_days: 365 },
      providers: { "shop-1": { key_sha256: "AB".repeat(32), rate_limit_per_min: 600, challenge_per_payer_per_min: 10 } },
      prover: { kind: "http", url: "https://prover.internal.example/prove", timeout_ms: 600_000, concurrency: 4 },
    });
    expect(config).toEqual({
      profile: "local",
      network: {
        rpc_urls: ["http://127.0.0.1:8545"],
        rpc_key: "rpc_url",
        indexer_url: "http://127.0.0.1:8546",
        decider_url: "http://127.0.0.1:8547",
        chain_id: 31337,
        token: "0x1111111111111111111111111111111111111111",
        verifier: "0x2222222222222222222222222222222222222222",
        hub: "0x3333333333333333333333333333333333333333",
        protocol: "zerc20-v2",
        confirmations: 3,
        finality_depth: 12,
        deploy_block: 1_234,
      },
      listen: { host: "0.0.0.0", port: 8080, trusted_proxies: ["10.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"] },
      settlement: {
        treasury: expect.any(String),
        permit_burner: "0x4444444444444444444444444444444444444444",
        journal: "/var/lib/svc/journal.jsonl",
        challenge_ttl_seconds: 60,
        expired_challenge_retention_seconds: 0,
        late_burn_retention_days: 30,
        permit_receipt_timeout_ms: 15_000,
      },
      fee: {
        mode: "custodial",
        recipient: "0x5555555555555555555555555555555555555555",
        bps: 250,
        min_per_payment: 5n,
        charge_to: "provider",
      },
      daemon: {
        finalize_interval_ms: 1000,
        shutdown_grace_ms: 0,
        rate_limit_per_min: 0,
        max_open_challenges: 1,
        challenge_per_key_per_min: -1,
        burn_address_pool_size: 3,
        burn_address_pool_max_size: 12,
        public_metrics: true,
        log_level: "warn",
      },
      finalize: { min_delay_seconds: 60, max_delay_seconds: 1800, min_anonymity_set: 3, witnesses: "indexer" },
      gas: { replace_after_seconds: 12.5, max_fee_gwei: 150 },
      history: { retention_days: 365 },
      providers: { "shop-1": { key_sha256: "ab".repeat(32), rate_limit_per_min: 600, challenge_per_payer_per_min: 10 } },
      prover: { kind: "http", url: "https://prover.internal.example/prove", timeout_ms: 600_000, concurrency: 4 },
    });
  });

  it("keeps addresses exactly as written (lower case, checksummed, upper case)", () => {
    const checksummed = getAddress("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd");
    const config = parse({ network: { token: checksummed, hub: "0xABCDEFABCDEFABCDEFABCDEFABCDEFABCDEFABCD" } });
    expect(config.network.token).toBe(checksummed);
    expect(config.network.hub).toBe("0xABCDEFABCDEFABCDEFABCDEFABCDEFABCDEFABCD");
    expect(config.network.verifier).toBe("0x2222222222222222222222222222222222222222");
  });
});

describe("parseConfig: defaults", () => {
  const config = parse({ listen: undefined, daemon: undefined, settlement: { permit_burner: undefined } });

  it.each([
    ["listen.host", config.listen.host, "127.0.0.1"],
    ["listen.port", config.listen.port, 4032],
    ["listen.trusted_proxies", config.listen.trusted_proxies, undefined],
    ["settlement.permit_burner", config.settlement.permit_burner, undefined],
    ["settlement.challenge_ttl_seconds", config.settlement.challenge_ttl_seconds, 300],
    ["settlement.expired_challenge_retention_seconds", config.settlement.expired_challenge_retention_seconds, 3600],
    ["settlement.permit_receipt_timeout_ms", config.settlement.permit_receipt_timeout_ms, 15_000],
    ["daemon.finalize_interval_ms", config.daemon.finalize_interval_ms, 15_000],
    ["finalize.min_delay_seconds", config.finalize.min_delay_seconds, 0],
    ["finalize.max_delay_seconds", config.finalize.max_delay_seconds, 0],
    ["finalize.min_anonymity_set", config.finalize.min_anonymity_set, 1],
    ["finalize.witnesses", config.finalize.witnesses, "self"],
    ["network.deploy_block", config.network.deploy_block, undefined],
    ["gas.replace_after_seconds", config.gas.replace_after_seconds, 30],
    ["gas.max_fee_gwei", config.gas.max_fee_gwei, undefined],
    ["daemon.shutdown_grace_ms", config.daemon.shutdown_grace_ms, 10_000],
    ["daemon.rate_limit_per_min", config.daemon.rate_limit_per_min, 120],
    ["daemon.max_open_challenges", config.daemon.max_open_challenges, 1000],
    ["daemon.challenge_per_key_per_min", config.daemon.challenge_per_key_per_min, 20],
    ["daemon.burn_address_pool_size", config.daemon.burn_address_pool_size, 16],
    ["daemon.burn_address_pool_max_size", config.daemon.burn_address_pool_max_size, 64],
    ["daemon.burn_address_workers", config.daemon.burn_address_workers, undefined],
    ["prover", config.prover, { kind: "fixture", timeout_ms: 120_000, concurrency: 1 }],
  ])("%s defaults to %j", (_key, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it("applies the defaults inside a table that sets only some keys", () => {
    const partial = parse({ listen: { port: 9000, host: undefined }, daemon: { rate_limit_per_min: 5 } });
    expect(partial.listen).toEqual({ host: "127.0.0.1", port: 9000, trusted_proxies: undefined });
    expect(partial.daemon.rate_limit_per_min).toBe(5);
    expect(partial.daemon.finalize_interval_ms).toBe(15_000);
  });

  it("derives for the deployed protocol version unless the file names the older one", () => {
    expect(parse({}).network.protocol).toBe("zerc20-v2");
    expect(parse({ network: { protocol: "zerc20-v1" } }).network.protocol).toBe("zerc20-v1");
  });

  it("fills chain, token, verifier and version from a published preset", () => {
    const network = parse({ network: { preset: "base-sepolia/zusdc", chain_id: undefined, token: undefined, verifier: undefined, hub: undefined } }).network;
    // The published Base Sepolia zUSDC deployment.
    expect(network).toMatchObject({
      preset: "base-sepolia/zusdc",
      chain_id: 84532,
      token: "0x132CeD517327C2aC5073ACEb9eCF1e7783feCbcF",
      verifier: "0xb199A85463Bc5c0009c058E80b8A0d3D5e0025D6",
      protocol: "zerc20-v2",
    });
    expect(network.hub).toBeUndefined();
    expect(parse({ network: { preset: "base/zeth", chain_id: 8453, token: undefined, verifier: undefined, hub: undefined } }).network).toMatchObject({
      token: "0x410056c6F0A9ABD8c42b9eEF3BB451966Fb0d924",
      verifier: "0xdCC76DEbb526Eef0210Bd38729b803591951Ab34",
    });
  });

  it("takes confirmations from the preset (2 on layer-1 chains, 1 on rollups), 1 without one, and refuses a finality shallower", () => {
    const preset = { chain_id: undefined, token: undefined, verifier: undefined, hub: undefined };
    expect(parse({ network: { ...preset, preset: "ethereum/zusdc" } }).network.confirmations).toBe(2);
    expect(parse({ network: { ...preset, preset: "sepolia/zusdc" } }).network.confirmations).toBe(2);
    expect(parse({ network: { ...preset, preset: "bnb/zbnb" } }).network.confirmations).toBe(2);
    expect(parse({ network: { ...preset, preset: "base/zusdc" } }).network.confirmations).toBe(1);
    expect(parse({ network: { ...preset, preset: "arbitrum-sepolia/zeth" } }).network.confirmations).toBe(1);
    expect(parse({ network: { ...preset, preset: "base/zusdc", confirmations: 3 } }).network.confirmations).toBe(3);
    expect(parse({}).network.confirmations).toBe(1);
    expect(parse({}).network.finality_depth).toBeUndefined();
    expect(errorOf({ network: { ...preset, preset: "ethereum/zusdc", finality_depth: 1 } })).toMatchObject({ key: "network.finality_depth" });
    expect(errorOf({ network: { confirmations: 0 } })).toMatchObject({ key: "network.confirmations" });
    expect(errorOf({ network: { confirmations: 65 } })).toMatchObject({ key: "network.confirmations" });
  });

  it("leaves the profile unset when the file does not name one", () => {
    expect(parse({ profile: undefined }).profile).toBeUndefined();
  });

  it("means no fee when the [fee] table is omitted", () => {
    expect(parse({ fee: undefined }).fee).toBeUndefined();
  });
});

describe("parseConfig: providers", () => {
  it("accepts a provider with only its key hash and leaves its limits to the daemon's", () => {
    expect(parse({ providers: { shop: { key_sha256: "0f".repeat(32) } } }).providers).toEqual({ shop: { key_sha256: "0f".repeat(32) } });
  });

  it.each([
    ["a short hash", { shop: { key_sha256: "0f".repeat(31) } }, "providers.shop.key_sha256"],
    ["a raw key instead of its hash", { shop: { key_sha256: "provider-key-not-hashed" } }, "providers.shop.key_sha256"],
    ["an upper-case name", { Shop: { key_sha256: "0f".repeat(32) } }, "providers.Shop"],
    ["a negative money limit", { shop: { key_sha256: "0f".repeat(32), rate_limit_per_min: -1 } }, "providers.shop.rate_limit_per_min"],
    ["two providers with one key", { a: { key_sha256: "0f".repeat(32) }, b: { key_sha256: "0F".repeat(32) } }, "providers.b.key_sha256"],
  ])("refuses %s", (_label, providers, key) => {
    const error = errorOf({ providers });
    expect(error).toBeInstanceOf(Error);
    expect(String((error as { key?: string }).key ?? error)).toContain(key);
  });

  it("refuses an unknown key inside a provider table", () => {
    expect(errorOf({ providers: { shop: { key_sha256: "0f".repeat(32), key: "plain" } } })).toBeInstanceOf(UnknownConfigKeyError);
  });
});

describe("parseConfig: minimums and ranges", () => {
  it.each([
    ["settlement", "challenge_ttl_seconds", 0, "must be at least 1"],
    ["settlement", "expired_challenge_retention_seconds", -1, "must be at least 0"],
    ["daemon", "finalize_interval_ms", 999, "must be at least 1000"],
    ["daemon", "shutdown_grace_ms", -1, "must be at least 0"],
    ["daemon", "rate_limit_per_min", -1, "must be at least 0"],
    ["daemon", "max_open_challenges", 0, "must be at least 1"],
    ["daemon", "burn_address_workers", 0, "must be between 1 and 256"],
    ["daemon", "burn_address_workers", 257, "must be between 1 and 256"],
    ["daemon", "burn_address_pool_max_size", 0, "must be between 1 and 4096"],
    ["daemon", "burn_address_pool_max_size", 4097, "must be between 1 and 4096"],
    ["network", "chain_id", 0, "must be at least 1"],
    ["listen", "port", 65_536, "must be between 0 and 65535"],
    ["fee", "bps", 10_001, "must be between 0 and 10000"],
    ["fee", "bps", -1, "must be between 0 and 10000"],
    ["gas", "replace_after_seconds", 0, "must be between 0.1 and 3600"],
    ["gas", "replace_after_seconds", 3601, "must be between 0.1 and 3600"],
    ["gas", "max_fee_gwei", 0, "must be a positive number of gwei"],
    ["gas", "max_fee_gwei", 1_000_001, "must be at most 1000000 gwei"],
  ])("refuses %s.%s = %j", (table, key, value, reason) => {
    const error = errorOf({ [table]: { [key]: value } });
    expect(error).toBeInstanceOf(InvalidConfigValueError);
    expect(error).toMatchObject({ key: `${table}.${key}`, reason });
  });

  it("accepts the minimums themselves", () => {
    const config = parse({
      settlement: { challenge_ttl_seconds: 1, expired_challenge_retention_seconds: 0 },
      daemon: { finalize_interval_ms: 1000, max_open_challenges: 1, rate_limit_per_min: 0, burn_address_workers: 1 },
    });
    expect(config.settlement.challenge_ttl_seconds).toBe(1);
    expect(config.daemon.burn_address_workers).toBe(1);
    expect(config.daemon.finalize_interval_ms).toBe(1000);
  });

  it("refuses a fractional integer", () => {
    expect(errorOf({ daemon: { shutdown_grace_ms: 1.5 } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "daemon.shutdown_grace_ms",
    });
  });

  it("accepts any integer for challenge_per_key_per_min, since 0 or less disables it", () => {
    expect(parse({ daemon: { challenge_per_key_per_min: -5 } }).daemon.challenge_per_key_per_min).toBe(-5);
  });

  it("pins the error text of a minimum", () => {
    expect(() => parse({ settlement: { challenge_ttl_seconds: 0 } })).toThrowErrorMatchingInlineSnapshot(
      `[InvalidConfigValueError: Invalid value for "settlement.challenge_ttl_seconds": must be at least 1.]`,
    );
  });
});

describe("parseConfig: RPC endpoints", () => {
  const A = "https://a.example/rpc";
  const B = "wss://b.example/ws";

  it("turns network.rpc_url into a one-element network.rpc_urls", () => {
    expect(parse({ network: { rpc_url: A } }).network).toMatchObject({ rpc_urls: [A], rpc_key: "rpc_url" });
    expect(parse({ network: { rpc_url: A } }).network).not.toHaveProperty("rpc_url");
  });

  it("keeps network.rpc_urls in the configured order", () => {
    expect(parse({ network: { rpc_url: undefined, rpc_urls: [A, B] } }).network).toMatchObject({ rpc_urls: [A, B], rpc_key: "rpc_urls" });
  });

  it("refuses both keys, naming them", () => {
    expect(() => parse({ network: { rpc_url: A, rpc_urls: [B] } })).toThrowErrorMatchingInlineSnapshot(
      `[InvalidConfigValueError: Invalid value for "network.rpc_urls": network.rpc_url and network.rpc_urls are both set: keep one (rpc_url is a one-element rpc_urls).]`,
    );
  });

  it("requires one of the two keys, naming both", () => {
    const error = errorOf({ network: { rpc_url: undefined } });
    expect(error).toBeInstanceOf(MissingConfigKeyError);
    expect(error).toMatchObject({ key: "network.rpc_url" });
    expect(String(error)).toContain("network.rpc_urls");
  });

  it("refuses an empty list, a duplicate and a bad entry, naming the entry's key", () => {
    expect(errorOf({ network: { rpc_url: undefined, rpc_urls: [] } })).toMatchObject({ name: "InvalidConfigValueError", key: "network.rpc_urls" });
    expect(() => parse({ network: { rpc_url: undefined, rpc_urls: [A, B, "https://a.example:443/rpc"] } })).toThrowErrorMatchingInlineSnapshot(
      `[InvalidConfigValueError: Invalid value for "network.rpc_urls[2]": the same endpoint as network.rpc_urls[0].]`,
    );
    expect(errorOf({ network: { rpc_url: undefined, rpc_urls: [A, "ftp://c.example/"] } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "network.rpc_urls[1]",
    });
    expect(errorOf({ network: { rpc_url: undefined, rpc_urls: A } })).toMatchObject({ name: "InvalidConfigValueError", key: "network.rpc_urls" });
  });
});

describe("parseConfig: required keys and types", () => {
  it.each([
    ["network", "rpc_url"],
    ["network", "indexer_url"],
    ["network", "decider_url"],
    ["network", "chain_id"],
    ["network", "token"],
    ["network", "verifier"],
    ["network", "hub"],
    ["settlement", "treasury"],
    ["settlement", "journal"],
  ])("requires %s.%s", (table, key) => {
    const error = errorOf({ [table]: { [key]: undefined } });
    expect(error).toBeInstanceOf(MissingConfigKeyError);
    expect(error).toMatchObject({ key: `${table}.${key}` });
  });

  it("requires the [network] and [settlement] tables", () => {
    expect(errorOf({ network: undefined })).toMatchObject({ name: "MissingConfigKeyError", key: "network" });
    expect(errorOf({ settlement: undefined })).toMatchObject({ name: "MissingConfigKeyError", key: "settlement" });
  });

  it("refuses a scalar where a table belongs", () => {
    expect(errorOf({ listen: "127.0.0.1" })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "listen",
      reason: "expected a table",
    });
  });

  it.each(["staging", "LOCAL", ""])("refuses the profile %j", (profile) => {
    expect(errorOf({ profile })).toMatchObject({ name: "InvalidConfigValueError", key: "profile" });
  });

  it.each(["local", "testnet", "production"] as const)("accepts the profile %s", (profile) => {
    expect(parse({ profile }).profile).toBe(profile);
  });

  it.each([
    ["rpc_url", "not a url"],
    ["rpc_url", "ftp://127.0.0.1/rpc"],
    ["indexer_url", "ws://127.0.0.1:1"],
    ["decider_url", 5],
  ])("refuses network.%s = %j", (key, value) => {
    expect(errorOf({ network: { [key]: value } })).toMatchObject({ name: "InvalidConfigValueError", key: `network.${key}` });
  });

  it("accepts a websocket RPC URL", () => {
    expect(parse({ network: { rpc_url: "wss://rpc.example/ws" } }).network.rpc_urls).toEqual(["wss://rpc.example/ws"]);
  });

  it("never quotes a URL in its error, since it may carry a key", () => {
    for (const network of [{ rpc_url: undefined, rpc_urls: ["https://rpc.example/?apikey=hunter2secret", "https://rpc.example/?apikey=hunter2secret"] }]) {
      expect(String(errorOf({ network }))).not.toContain("hunter2secret");
    }
    const error = errorOf({ network: { rpc_url: "ftp://user:hunter2secret@rpc.example/" } });
    expect(String(error)).not.toContain("hunter2secret");
  });

  it.each(["", "bad host!", "[::1]", "127.0.0.1:80"])("refuses listen.host %j", (host) => {
    expect(errorOf({ listen: { host } })).toMatchObject({ name: "InvalidConfigValueError", key: "listen.host" });
  });

  it.each(["localhost", "::", "0.0.0.0", "svc.internal.example"])("accepts listen.host %j", (host) => {
    expect(parse({ listen: { host } }).listen.host).toBe(host);
  });
});

describe("parseConfig: addresses", () => {
  it.each([
    ["too short", "0x1234"],
    ["no 0x prefix", "1111111111111111111111111111111111111111"],
    ["not hex", "0x111111111111111111111111111111111111111g"],
    ["a number", 5],
  ])("refuses an address that is %s", (_why, value) => {
    const error = errorOf({ network: { token: value } });
    expect(error).toBeInstanceOf(InvalidConfigValueError);
    expect(error).toMatchObject({ key: "network.token", reason: "expected an address: 0x and 40 hex digits" });
  });

  it("refuses a mixed-case address with a broken checksum", () => {
    const checksummed = getAddress("0xabcdefabcdefabcdefabcdefabcdefabcdefabcd");
    // Swap the case of the first letter: still mixed case, no longer the checksum.
    const broken = checksummed.replace(/[a-fA-F]/, (letter) => (letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase()));
    expect(broken).not.toBe(checksummed);
    expect(errorOf({ settlement: { treasury: broken } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "settlement.treasury",
      reason: "mixed-case address with an invalid EIP-55 checksum",
    });
  });

  it("refuses the zero address", () => {
    expect(errorOf({ fee: { recipient: "0x0000000000000000000000000000000000000000" } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "fee.recipient",
      reason: "the zero address is not allowed",
    });
  });

  it("refuses a protocol version it does not know, and says which it knows", () => {
    expect(errorOf({ network: { protocol: "zerc20-v3" } })).toMatchObject({
      key: "network.protocol",
      reason: 'expected "zerc20-v2" (every published deployment) or "zerc20-v1"',
    });
  });

  it("refuses a key that differs from the preset, an unknown preset, and a missing key without a preset", () => {
    const preset = { preset: "base-sepolia/zusdc", chain_id: undefined, token: undefined, verifier: undefined, hub: undefined };
    expect(errorOf({ network: { ...preset, chain_id: 31337 } })).toMatchObject({ key: "network.chain_id" });
    expect(errorOf({ network: { ...preset, verifier: "0x2222222222222222222222222222222222222222" } })).toMatchObject({ key: "network.verifier" });
    expect(errorOf({ network: { ...preset, protocol: "zerc20-v1" } })).toMatchObject({ key: "network.protocol" });
    expect(errorOf({ network: { ...preset, preset: "base-sepolia/zdoge" } })).toMatchObject({ key: "network.preset" });
    expect(errorOf({ network: { token: undefined } })).toMatchObject({ name: "MissingConfigKeyError", key: "network.token" });
  });

  it("checks the optional settlement.permit_burner too", () => {
    expect(errorOf({ settlement: { permit_burner: "0x12" } })).toMatchObject({ key: "settlement.permit_burner" });
  });
});

describe("parseConfig: unknown keys", () => {
  it("refuses a misspelt key and names it", () => {
    const error = errorOf({ fee: { min_per_paymnet: "5" } });
    expect(error).toBeInstanceOf(UnknownConfigKeyError);
    expect(error).toMatchObject({ key: "fee.min_per_paymnet" });
  });

  it("reports the unknown key before the missing key it probably stands for", () => {
    const result = safeParseConfig(buildConfigTable({ network: { chain_id: undefined, chainid: 31337 } }), {
      configDir: CONFIG_DIR,
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors.map((error) => [error.name, "key" in error ? error.key : undefined])).toEqual([
      ["UnknownConfigKeyError", "network.chainid"],
      ["MissingConfigKeyError", "network.chain_id"],
    ]);
  });

  it("refuses unknown top-level keys and tables", () => {
    expect(errorOf({ logging: { level: "debug" } })).toMatchObject({ name: "UnknownConfigKeyError", key: "logging" });
  });

  it("refuses a secret in the file and points at the environment, without echoing it", () => {
    const secret = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
    const error = errorOf({ settlement: { treasury_pk: secret } });
    expect(error).toBeInstanceOf(UnknownConfigKeyError);
    expect(error).toMatchObject({ key: "settlement.treasury_pk" });
    expect(String(error)).toContain("SVC_TREASURY_PK");
    expect(String(error)).not.toContain(secret.slice(2, 10));
  });

  it("pins the unknown-key message", () => {
    expect(() => parse({ daemon: { finalize_intervall_ms: 1000 } })).toThrowErrorMatchingInlineSnapshot(`
      [UnknownConfigKeyError: Unknown configuration key "daemon.finalize_intervall_ms".

      Details: unknown keys are refused so that a typo in a payment setting cannot pass silently]
    `);
  });
});

describe("parseConfig: trusted proxies", () => {
  it("turns a single string into a one-element list", () => {
    expect(parse({ listen: { trusted_proxies: "10.1.2.3" } }).listen.trusted_proxies).toEqual(["10.1.2.3"]);
  });

  it.each([
    ["a host name", "proxy.example", "listen.trusted_proxies[0]"],
    ["a prefix too long for IPv4", "10.0.0.0/33", "listen.trusted_proxies[0]"],
    ["a prefix too long for IPv6", "fd00::/129", "listen.trusted_proxies[0]"],
    ["a netmask instead of a prefix", "10.0.0.0/255.0.0.0", "listen.trusted_proxies[0]"],
    ["a number", 5, "listen.trusted_proxies"],
  ])("refuses %s", (_why, value, key) => {
    expect(errorOf({ listen: { trusted_proxies: value } })).toMatchObject({ name: "InvalidConfigValueError", key });
  });

  it("names the offending list element", () => {
    expect(errorOf({ listen: { trusted_proxies: ["10.0.0.1", "nope"] } })).toMatchObject({
      key: "listen.trusted_proxies[1]",
    });
  });
});

describe("parseConfig: settlement.journal", () => {
  it('turns "none" into null', () => {
    expect(parse({ settlement: { journal: "none" } }).settlement.journal).toBeNull();
  });

  it("resolves a relative path against the configuration file's folder", () => {
    expect(parse({ settlement: { journal: "state/journal.jsonl" } }).settlement.journal).toBe("/etc/svc/state/journal.jsonl");
  });

  it("keeps an absolute path", () => {
    expect(parse({ settlement: { journal: "/tmp/j.jsonl" } }).settlement.journal).toBe("/tmp/j.jsonl");
  });

  it("refuses an empty path", () => {
    expect(errorOf({ settlement: { journal: "" } })).toMatchObject({ name: "InvalidConfigValueError", key: "settlement.journal" });
  });
});

describe("parseConfig: fee table", () => {
  it.each(["bps", "min_per_payment", "charge_to"])("requires fee.%s when the table is present", (key) => {
    const error = errorOf({ fee: { [key]: undefined } });
    expect(error).toBeInstanceOf(MissingConfigKeyError);
    expect(error).toMatchObject({ key: `fee.${key}` });
    expect(String(error)).toContain("required when the [fee] table is present");
  });

  it("refuses an unknown charge_to", () => {
    expect(errorOf({ fee: { charge_to: "merchant" } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "fee.charge_to",
      reason: 'expected "payer" or "provider"',
    });
  });

  it.each([
    ["a decimal string", "1000", 1000n],
    ["an integer", 1000, 1000n],
    ["zero", 0, 0n],
    ["a bigint beyond 2^53", 10n ** 20n, 10n ** 20n],
    ["a long decimal string", "100000000000000000000", 10n ** 20n],
  ])("accepts min_per_payment as %s", (_why, value, expected) => {
    expect(parse({ fee: { min_per_payment: value } }).fee?.min_per_payment).toBe(expected);
  });

  it.each([
    ["negative", -1, "must be between 0 and 2^248 - 1 base units"],
    ["fractional", 1.5, 'expected base units: a TOML integer or a decimal string such as "1000"'],
    ["a signed string", "-5", 'expected base units: a TOML integer or a decimal string such as "1000"'],
    ["a hex string", "0x10", 'expected base units: a TOML integer or a decimal string such as "1000"'],
    ["above 2^248 - 1", (1n << 248n).toString(), "must be between 0 and 2^248 - 1 base units"],
  ])("refuses min_per_payment that is %s", (_why, value, reason) => {
    expect(errorOf({ fee: { min_per_payment: value } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "fee.min_per_payment",
      reason,
    });
  });

  it("is custodial when fee.recipient is set", () => {
    expect(parse().fee).toEqual({
      mode: "custodial",
      recipient: "0x5555555555555555555555555555555555555555",
      bps: 100,
      min_per_payment: 0n,
      charge_to: "payer",
    });
  });

  it("is split when fee.splitter is set and equals the treasury", () => {
    const config = parse({ settlement: { treasury: SPLITTER }, fee: { recipient: undefined, splitter: SPLITTER } });
    expect(config.fee).toEqual({ mode: "split", splitter: SPLITTER, bps: 100, min_per_payment: 0n, charge_to: "payer" });
  });

  it("compares the splitter with the treasury case-insensitively", () => {
    const config = parse({
      settlement: { treasury: SPLITTER.toLowerCase() },
      fee: { recipient: undefined, splitter: SPLITTER },
    });
    expect(config.fee?.mode).toBe("split");
  });

  it("refuses both fee.recipient and fee.splitter", () => {
    const error = errorOf({ settlement: { treasury: SPLITTER }, fee: { splitter: SPLITTER } });
    expect(error).toBeInstanceOf(FeeModeError);
    expect(error).toMatchObject({ present: "both" });
  });

  it("refuses neither fee.recipient nor fee.splitter", () => {
    const error = errorOf({ fee: { recipient: undefined } });
    expect(error).toBeInstanceOf(FeeModeError);
    expect(error).toMatchObject({ present: "neither" });
  });

  it("refuses a splitter that is not the treasury", () => {
    expect(errorOf({ fee: { recipient: undefined, splitter: SPLITTER } })).toBeInstanceOf(SplitterMismatchError);
  });

  it("refuses bps 0 in split mode", () => {
    expect(errorOf({ settlement: { treasury: SPLITTER }, fee: { recipient: undefined, splitter: SPLITTER, bps: 0 } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "fee.bps",
      reason: "must be at least 1 in split mode (fee.splitter set)",
    });
  });

  it("refuses a non-zero minimum in split mode", () => {
    expect(errorOf({ settlement: { treasury: SPLITTER }, fee: { recipient: undefined, splitter: SPLITTER, min_per_payment: "1" } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "fee.min_per_payment",
      reason: "must be 0 in split mode (fee.splitter set)",
    });
  });

  it("allows bps 0 with a fixed minimum in custodial mode", () => {
    expect(parse({ fee: { bps: 0, min_per_payment: "25" } }).fee).toMatchObject({ bps: 0, min_per_payment: 25n });
  });

  it("reports a missing treasury in split mode as missing, not as a crash of the cross-key rules", () => {
    expect(errorOf({ settlement: undefined, fee: { recipient: undefined, splitter: SPLITTER } })).toMatchObject({
      name: "MissingConfigKeyError",
      key: "settlement",
    });
    expect(errorOf({ settlement: { treasury: "0x12" }, fee: { recipient: undefined, splitter: SPLITTER } })).toMatchObject({
      name: "InvalidConfigValueError",
      key: "settlement.treasury",
    });
  });

  it("lists every fee problem of a split table at once", () => {
    const result = safeParseConfig(buildConfigTable({ fee: { recipient: undefined, splitter: SPLITTER, bps: 0, min_per_payment: 3 } }), {
      configDir: CONFIG_DIR,
    });
    expect(result.success ? [] : result.errors.map((error) => error.name)).toEqual([
      "InvalidConfigValueError",
      "InvalidConfigValueError",
      "SplitterMismatchError",
    ]);
  });
});

describe("parseConfig: storage", () => {
  it("is absent by default: the embedded storage", () => {
    expect(parse().storage).toBeUndefined();
  });

  it("takes a postgres URL without a password, with defaults for the pool and the finalize lease", () => {
    expect(parse({ storage: { url: "postgres://svc@db.internal:5432/svc" } }).storage).toEqual({
      url: "postgres://svc@db.internal:5432/svc",
      max_connections: 10,
      finalize_lease_ms: 60_000,
    });
  });

  it("makes settlement.journal optional (null: the journal is the database's); without it the key stays required", () => {
    expect(parse({ settlement: { journal: undefined }, storage: { url: "postgres://svc@db/svc" } }).settlement.journal).toBeNull();
    expect(errorOf({ settlement: { journal: undefined } })).toMatchObject({ name: "MissingConfigKeyError", key: "settlement.journal" });
    expect((errorOf({ settlement: { journal: undefined } }) as Error).message).toContain("unless [storage] is set");
  });

  it("refuses a password in the URL without echoing it, and any other scheme", () => {
    const error = errorOf({ storage: { url: "postgres://svc:hunter2-secret@db/svc" } });
    expect(error).toBeInstanceOf(InvalidConfigValueError);
    expect((error as Error).message).toContain("SVC_STORAGE_PASSWORD");
    expect((error as Error).message).not.toContain("hunter2-secret");
    expect(errorOf({ storage: { url: "mysql://svc@db/svc" } })).toBeInstanceOf(InvalidConfigValueError);
    expect(errorOf({ storage: { url: "postgres://svc@db/svc", replicas: 2 } })).toBeInstanceOf(Error);
  });
});

describe("parseConfig: burn-address stock", () => {
  it("takes four times the pool size as the ceiling by default, and an explicit one as written", () => {
    expect(parse({ daemon: { burn_address_pool_size: 1024 } }).daemon.burn_address_pool_max_size).toBe(4096);
    expect(parse({ daemon: { burn_address_pool_size: 5, burn_address_pool_max_size: 5 } }).daemon.burn_address_pool_max_size).toBe(5);
  });

  it("refuses a ceiling below the pool size, naming the key", () => {
    const error = errorOf({ daemon: { burn_address_pool_size: 16, burn_address_pool_max_size: 15 } });
    expect(error).toBeInstanceOf(InvalidConfigValueError);
    expect(error).toMatchObject({ key: "daemon.burn_address_pool_max_size" });
    expect(String((error as Error).message)).toContain("daemon.burn_address_pool_size");
  });
});

describe("parseConfig: finalize", () => {
  it("refuses a maximum delay below the minimum, naming the key", () => {
    const error = errorOf({ finalize: { min_delay_seconds: 60, max_delay_seconds: 30 } });
    expect(error).toBeInstanceOf(InvalidConfigValueError);
    expect(error).toMatchObject({ key: "finalize.max_delay_seconds" });
    expect(String((error as Error).message)).toContain("finalize.min_delay_seconds");
  });

  it.each([
    ["finalize.min_delay_seconds", { min_delay_seconds: -1 }],
    ["finalize.min_delay_seconds", { min_delay_seconds: 1.5 }],
    ["finalize.max_delay_seconds", { max_delay_seconds: "60" }],
    ["finalize.max_delay_seconds", { max_delay_seconds: 604_801 }],
    ["finalize.min_anonymity_set", { min_anonymity_set: 0 }],
    ["finalize.witnesses", { witnesses: "both" }],
  ])("refuses a bad %s", (key, finalize) => {
    expect(errorOf({ finalize })).toMatchObject({ key });
    expect(errorOf({ finalize })).toBeInstanceOf(InvalidConfigValueError);
  });

  it.each(["testnet", "production"])("defaults to the recommended policy under profile %s, and keeps a key the file sets", (profile) => {
    expect(parse({ profile }).finalize).toEqual({ min_delay_seconds: 60, max_delay_seconds: 1800, min_anonymity_set: 3, witnesses: "self" });
    expect(parse({ profile, finalize: { min_anonymity_set: 5 } }).finalize).toEqual({
      min_delay_seconds: 60,
      max_delay_seconds: 1800,
      min_anonymity_set: 5,
      witnesses: "self",
    });
  });

  it("keeps the fast policy under profile local, and checks the maximum against the profile's minimum", () => {
    expect(parse({ profile: "local" }).finalize).toEqual({ min_delay_seconds: 0, max_delay_seconds: 0, min_anonymity_set: 1, witnesses: "self" });
    expect(errorOf({ profile: "production", finalize: { max_delay_seconds: 30 } })).toMatchObject({ key: "finalize.max_delay_seconds" });
  });

  it("refuses an unknown key in [finalize]", () => {
    expect(errorOf({ finalize: { min_delay: 5 } })).toBeInstanceOf(UnknownConfigKeyError);
  });
});

describe("parseConfig: prover", () => {
  it("takes a command as a program and its arguments, with the default limits", () => {
    expect(parse({ prover: { kind: "command", command: ["/opt/zerc20/prove", "--threads", "8"] } }).prover).toEqual({
      kind: "command",
      command: ["/opt/zerc20/prove", "--threads", "8"],
      timeout_ms: 120_000,
      concurrency: 1,
    });
  });

  it("resolves a program written as a relative path against the configuration file's folder, and leaves a bare name to PATH", () => {
    expect(parse({ prover: { kind: "command", command: ["bin/prove", "./witness"] } }).prover).toMatchObject({ command: ["/etc/svc/bin/prove", "./witness"] });
    expect(parse({ prover: { kind: "command", command: ["./prove"] } }).prover).toMatchObject({ command: ["/etc/svc/prove"] });
    expect(parse({ prover: { kind: "command", command: ["zerc20-prover"] } }).prover).toMatchObject({ command: ["zerc20-prover"] });
  });

  it("takes an http or https URL for a prover service", () => {
    expect(parse({ prover: { kind: "http", url: "http://127.0.0.1:9000/prove" } }).prover).toEqual({
      kind: "http",
      url: "http://127.0.0.1:9000/prove",
      timeout_ms: 120_000,
      concurrency: 1,
    });
  });

  it("takes a snarkjs circuit's files, resolved against the configuration file's folder", () => {
    expect(
      parse({ prover: { kind: "snarkjs", wasm: "circuit/singleTeleport.wasm", zkey: "/var/lib/svc/singleTeleport.zkey", concurrency: 2 } }).prover,
    ).toEqual({
      kind: "snarkjs",
      wasm: "/etc/svc/circuit/singleTeleport.wasm",
      zkey: "/var/lib/svc/singleTeleport.zkey",
      timeout_ms: 120_000,
      concurrency: 2,
    });
  });

  it.each([
    ["command", { kind: "command" }, 'required when prover.kind = "command"'],
    ["url", { kind: "http" }, 'required when prover.kind = "http"'],
    ["wasm", { kind: "snarkjs", zkey: "key.zkey" }, 'required when prover.kind = "snarkjs"'],
    ["zkey", { kind: "snarkjs", wasm: "circuit.wasm" }, 'required when prover.kind = "snarkjs"'],
  ])("requires prover.%s for its kind, and says why", (key, prover, reason) => {
    const error = errorOf({ prover });
    expect(error).toBeInstanceOf(MissingConfigKeyError);
    expect(error).toMatchObject({ key: `prover.${key}` });
    expect((error as Error).message).toContain(reason);
  });

  it.each([
    ["a url under the default kind", { url: "http://127.0.0.1:9000/" }, "prover.url", 'only used with prover.kind = "http"; set the kind or remove the key'],
    [
      "a command under kind http",
      { kind: "http", url: "http://127.0.0.1:9000/", command: ["prove"] },
      "prover.command",
      'only used with prover.kind = "command"; set the kind or remove the key',
    ],
    ["an unknown kind", { kind: "grpc" }, "prover.kind", 'expected "fixture", "command", "http" or "snarkjs"'],
    [
      "a proving key under kind command",
      { kind: "command", command: ["prove"], zkey: "key.zkey" },
      "prover.zkey",
      'only used with prover.kind = "snarkjs"; set the kind or remove the key',
    ],
    ["an empty circuit path", { kind: "snarkjs", wasm: "", zkey: "key.zkey" }, "prover.wasm", "expected a file path"],
    ["an empty command", { kind: "command", command: [] }, "prover.command", 'expected a non-empty list of strings: ["program", "argument", ...]'],
    [
      "a command given as one string",
      { kind: "command", command: "prove --fast" },
      "prover.command",
      'expected a non-empty list of strings: ["program", "argument", ...]',
    ],
    ["an empty program", { kind: "command", command: ["", "--fast"] }, "prover.command[0]", "the program (first element) must not be empty"],
    ["a number among the arguments", { kind: "command", command: ["prove", 8] }, "prover.command[1]", "expected a string"],
    ["a non-http URL", { kind: "http", url: "ws://127.0.0.1:9000/" }, "prover.url", "expected a http or https URL"],
    ["a timeout below a second", { timeout_ms: 999 }, "prover.timeout_ms", "must be between 1000 and 3600000"],
    ["a timeout above an hour", { timeout_ms: 3_600_001 }, "prover.timeout_ms", "must be between 1000 and 3600000"],
    ["a concurrency of 0", { concurrency: 0 }, "prover.concurrency", "must be between 1 and 64"],
    ["a concurrency above 64", { concurrency: 65 }, "prover.concurrency", "must be between 1 and 64"],
  ])("refuses %s", (_why, prover, key, reason) => {
    const error = errorOf({ prover });
    expect(error).toBeInstanceOf(InvalidConfigValueError);
    expect(error).toMatchObject({ key, reason });
  });

  it("accepts the limits' bounds", () => {
    expect(parse({ prover: { timeout_ms: 1000, concurrency: 1 } }).prover).toMatchObject({ timeout_ms: 1000, concurrency: 1 });
    expect(parse({ prover: { timeout_ms: 3_600_000, concurrency: 64 } }).prover).toMatchObject({ timeout_ms: 3_600_000, concurrency: 64 });
  });

  it("never quotes the prover URL, which may carry a credential", () => {
    for (const url of ["ftp://user:hunter2secret@prover.example/", "http://prover.example/hunter2secret"]) {
      const error = errorOf({ prover: { url } });
      expect(inspect(error)).not.toContain("hunter2secret");
    }
  });

  it("refuses an unknown key in [prover]", () => {
    expect(errorOf({ prover: { kind: "command", command: ["prove"], env: { RAYON_NUM_THREADS: "8" } } })).toMatchObject({
      name: "UnknownConfigKeyError",
      key: "prover.env",
    });
  });

  it("pins the message of a missing command", () => {
    expect(() => parse({ prover: { kind: "command" } })).toThrowErrorMatchingInlineSnapshot(
      `[MissingConfigKeyError: Missing required configuration key "prover.command": required when prover.kind = "command".]`,
    );
  });
});
