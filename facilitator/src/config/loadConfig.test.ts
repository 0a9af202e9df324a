import { dirname, join } from "node:path";
import { inspect } from "node:util";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { ConfigFileReadError, ConfigSyntaxError, UnknownConfigKeyError } from "./errors.js";
import { InvalidSecretError, MissingSecretError } from "./errors.js";
import { developmentKeys } from "./developmentKeys.js";
import { loadConfig } from "./loadConfig.js";
import { buildConfigTable, buildEnv, TEST_ADMIN_TOKEN, TEST_TREASURY_PK, writeConfigFile } from "./testing/buildConfig.js";
import { rejectionOf } from "../testing/rejectionOf.js";

const FULL_TOML = `# every key of the configuration table
profile = "local"

[network]
rpc_url = "http://127.0.0.1:8545"
indexer_url = "http://127.0.0.1:8546"
decider_url = "http://127.0.0.1:8547"
chain_id = 31337
token = "0x1111111111111111111111111111111111111111"
verifier = "0x2222222222222222222222222222222222222222"
hub = "0x3333333333333333333333333333333333333333"

[listen]
host = "127.0.0.1"
port = 4032
trusted_proxies = "127.0.0.1"

[settlement]
treasury = "${privateKeyToAddress(TEST_TREASURY_PK)}"
permit_burner = "0x4444444444444444444444444444444444444444"
journal = "journal.jsonl"
challenge_ttl_seconds = 120
expired_challenge_retention_seconds = 600

[fee]
bps = 100
min_per_payment = 1_000_000_000_000_000_000
charge_to = "payer"
recipient = "0x5555555555555555555555555555555555555555"

[daemon]
finalize_interval_ms = 1000
shutdown_grace_ms = 5000
rate_limit_per_min = 0
max_open_challenges = 50
challenge_per_key_per_min = 0
`;

describe("loadConfig", () => {
  it("loads a full file, its secrets and its warnings", async () => {
    const path = await writeConfigFile(FULL_TOML);
    const { config, secrets, warnings } = await loadConfig(path, buildEnv());
    expect(config.settlement.journal).toBe(join(dirname(path), "journal.jsonl"));
    expect(config.settlement.challenge_ttl_seconds).toBe(120);
    expect(config.listen.trusted_proxies).toEqual(["127.0.0.1"]);
    expect(config.fee).toMatchObject({ mode: "custodial", min_per_payment: 10n ** 18n });
    expect(config.daemon.max_open_challenges).toBe(50);
    expect(secrets.treasuryPk).toBe(TEST_TREASURY_PK);
    expect(secrets.adminToken).toBe(TEST_ADMIN_TOKEN);
    expect(warnings).toEqual([]);
  });

  it("keeps base units exact beyond 2^53 whether written as an integer or a string", async () => {
    for (const spelling of ["123456789012345678901234567890", '"123456789012345678901234567890"']) {
      const path = await writeConfigFile(FULL_TOML.replace("1_000_000_000_000_000_000", spelling));
      const { config } = await loadConfig(path, buildEnv());
      expect(config.fee?.min_per_payment).toBe(123456789012345678901234567890n);
    }
  });

  it("returns the startup warnings", async () => {
    const path = await writeConfigFile(buildConfigTable({ settlement: { journal: "none" } }));
    const { warnings } = await loadConfig(path, buildEnv());
    expect(warnings.map((warning) => warning.code)).toEqual(["journal_disabled"]);
  });

  it("reports a TOML syntax error with its line and without quoting the source", async () => {
    const secretLine = `treasury_pk = "${TEST_TREASURY_PK}`; // unterminated string on line 3
    const path = await writeConfigFile(`profile = "local"\n\n${secretLine}\n[network]\n`);
    const error = await rejectionOf(loadConfig(path, buildEnv()));
    expect(error).toBeInstanceOf(ConfigSyntaxError);
    expect(error).toMatchObject({ path, line: 3 });
    expect(`${String(error)} ${inspect(error)}`).not.toContain(TEST_TREASURY_PK.slice(2, 20));
  });

  it("pins the syntax error message", async () => {
    const path = await writeConfigFile("a = = 1\n");
    const error = await rejectionOf(loadConfig(path, buildEnv()));
    expect(error).toMatchObject({
      name: "ConfigSyntaxError",
      shortMessage: `Invalid TOML in ${JSON.stringify(path)} at line 1, column 5: invalid value.`,
    });
  });

  it("refuses a duplicate key as a syntax error", async () => {
    const path = await writeConfigFile('profile = "local"\nprofile = "testnet"\n');
    expect(await rejectionOf(loadConfig(path, buildEnv()))).toMatchObject({ name: "ConfigSyntaxError", line: 2 });
  });

  it("refuses a __proto__ key instead of letting it reach the schema", async () => {
    const path = await writeConfigFile('profile = "local"\n[network]\n__proto__ = 1\n');
    expect(await rejectionOf(loadConfig(path, buildEnv()))).toMatchObject({ name: "ConfigSyntaxError", line: 3 });
  });

  it("refuses a secret written in the file through the unknown-key rule, without echoing it", async () => {
    const path = await writeConfigFile(buildConfigTable({ settlement: { relayer_pk: TEST_TREASURY_PK } }));
    const error = await rejectionOf(loadConfig(path, buildEnv()));
    expect(error).toBeInstanceOf(UnknownConfigKeyError);
    expect(error).toMatchObject({ key: "settlement.relayer_pk" });
    expect(String(error)).not.toContain(TEST_TREASURY_PK.slice(2, 20));
  });

  it("refuses a missing file with a named error", async () => {
    const path = join(dirname(await writeConfigFile("")), "absent.toml");
    const error = await rejectionOf(loadConfig(path, buildEnv()));
    expect(error).toBeInstanceOf(ConfigFileReadError);
    expect(error).toMatchObject({ path, details: "ENOENT" });
  });

  it("refuses a missing or malformed secret", async () => {
    const path = await writeConfigFile(buildConfigTable());
    expect(await rejectionOf(loadConfig(path, buildEnv({ SVC_RELAYER_PK: undefined })))).toBeInstanceOf(MissingSecretError);
    expect(await rejectionOf(loadConfig(path, buildEnv({ SVC_RELAYER_PK: "0xnope" })))).toBeInstanceOf(InvalidSecretError);
  });

  it("never puts a secret's value in any error it throws", async () => {
    const devKey = developmentKeys()[3] ?? "0x";
    const cases: [Record<string, unknown>, Record<string, string | undefined>, string][] = [
      [{}, { SVC_TREASURY_PK: `${TEST_TREASURY_PK}ff` }, TEST_TREASURY_PK],
      [{}, { SVC_RELAYER_PK: `0x${"ff".repeat(32)}` }, "ff".repeat(32)],
      [{ profile: "testnet" }, { SVC_RELAYER_PK: devKey }, devKey],
      [{ listen: { host: "0.0.0.0" } }, { SVC_TREASURY_PK: devKey }, devKey],
      [{}, { SVC_ADMIN_TOKEN: "short-token" }, "short-token"],
      [{ settlement: { treasury: "0x7777777777777777777777777777777777777777" } }, {}, TEST_TREASURY_PK],
    ];
    for (const [overrides, env, secret] of cases) {
      const path = await writeConfigFile(buildConfigTable(overrides));
      const error = await rejectionOf(loadConfig(path, buildEnv(env)));
      const printed = `${String(error)} ${inspect(error, { depth: 5 })} ${JSON.stringify(error)}`.toLowerCase();
      expect(printed).not.toContain(secret.replace(/^0x/, "").toLowerCase());
    }
  });
});
