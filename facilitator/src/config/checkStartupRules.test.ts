import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { AdminTokenRequiredError, MissingSecretError } from "./errors.js";
import {
  ChainIdMismatchError,
  DevelopmentKeyRefusedError,
  JournalRequiredError,
  LocalProfileChainError,
  ProviderCredentialsRequiredError,
  SeparateMinterRequiredError,
  TreasuryKeyMismatchError,
} from "./errors.js";
import { assertRpcChainId } from "./assertRpcChainId.js";
import { adminTokenRequiredReason, checkStartupRules } from "./checkStartupRules.js";
import { developmentKeys } from "./developmentKeys.js";
import { parseConfig } from "./parseConfig.js";
import { parseSecrets } from "./parseSecrets.js";
import { buildConfigTable, buildEnv, type ConfigTable } from "./testing/buildConfig.js";

const DEV_TREASURY_PK = developmentKeys()[1] ?? "0x";
const DEV_RELAYER_PK = developmentKeys()[2] ?? "0x";
const DEV_TREASURY = privateKeyToAddress(DEV_TREASURY_PK);
/** One provider, which every non-local profile requires. */
const PROVIDERS = { shop: { key_sha256: "0f".repeat(32) } };
/** A minter key of its own, which profiles testnet and production require. */
const MINTER = { SVC_MINTER_PK: `0x${"11".repeat(32)}` };

function run(overrides: ConfigTable = {}, env: Record<string, string | undefined> = {}, rpcChainId?: number | bigint) {
  const config = parseConfig(buildConfigTable(overrides), { configDir: "/etc/svc" });
  return checkStartupRules({ config, secrets: parseSecrets(buildEnv(env)), rpcChainId });
}

/** The warnings other than the linkability ones, which every non-local setup here without [finalize] and SVC_MINTER_PK gets. */
function apartFromLinkability(warnings: ReturnType<typeof run>) {
  return warnings.filter((warning) => warning.code !== "linkable_hands" && warning.code !== "linkable_schedule");
}

function errorOf(...args: Parameters<typeof run>): unknown {
  try {
    run(...args);
  } catch (error) {
    return error;
  }
  throw new Error("expected checkStartupRules to throw");
}

describe("checkStartupRules: a clean local setup", () => {
  it("passes without warnings", () => {
    expect(run()).toEqual([]);
  });
});

describe("checkStartupRules: well-known development keys", () => {
  const devEnv = { SVC_TREASURY_PK: DEV_TREASURY_PK, SVC_RELAYER_PK: DEV_RELAYER_PK };
  const devTreasury = { settlement: { treasury: DEV_TREASURY } };

  it("accepts them with a warning per key when all four local predicates hold", () => {
    expect(run(devTreasury, devEnv)).toEqual([
      {
        code: "development_key",
        message: "SVC_TREASURY_PK is a well-known development key (anvil account 1); accepted only because the setup is fully local",
      },
      {
        code: "development_key",
        message: "SVC_RELAYER_PK is a well-known development key (anvil account 2); accepted only because the setup is fully local",
      },
    ]);
  });

  it("recognizes an upper-case spelling of a development key", () => {
    const upper = `0x${DEV_RELAYER_PK.slice(2).toUpperCase()}`;
    expect(errorOf({ listen: { host: "0.0.0.0" } }, { SVC_RELAYER_PK: upper })).toBeInstanceOf(DevelopmentKeyRefusedError);
  });

  it.each([
    ["profile", { profile: "production" }, "the profile is not `local`"],
    ["profile", { profile: undefined }, "the profile is not `local`"],
    ["listen_host", { listen: { host: "0.0.0.0" } }, "listen.host is not a loopback address"],
    [
      "rpc_host",
      { network: { rpc_url: "http://10.0.0.5:8545" } },
      "the host of network.rpc_url (or of an entry of network.rpc_urls) is not a loopback address",
    ],
    [
      "rpc_host",
      { network: { rpc_url: undefined, rpc_urls: ["http://127.0.0.1:8545", "https://rpc.example"] } },
      "the host of network.rpc_url (or of an entry of network.rpc_urls) is not a loopback address",
    ],
    ["chain_id", { network: { chain_id: 1 } }, "network.chain_id is not 31337"],
  ] as const)("refuses SVC_RELAYER_PK when the %s predicate fails", (predicate, overrides, reason) => {
    const error = errorOf(overrides, { SVC_RELAYER_PK: DEV_RELAYER_PK });
    expect(error).toBeInstanceOf(DevelopmentKeyRefusedError);
    expect(error).toMatchObject({
      variable: "SVC_RELAYER_PK",
      predicate,
      shortMessage: `SVC_RELAYER_PK is a well-known development key, refused because ${reason}.`,
    });
    expect(String(error)).not.toContain(DEV_RELAYER_PK.slice(2));
    expect(String(error).toLowerCase()).not.toContain(DEV_RELAYER_PK.slice(2, 12).toLowerCase());
  });

  it("names only the first failed predicate", () => {
    const error = errorOf(
      { profile: "testnet", listen: { host: "0.0.0.0" }, network: { chain_id: 1, rpc_url: "https://rpc.example" } },
      { SVC_RELAYER_PK: DEV_RELAYER_PK },
    );
    expect(error).toMatchObject({ predicate: "profile" });
  });

  it("refuses a development treasury key the same way", () => {
    const error = errorOf({ ...devTreasury, listen: { host: "::" } }, { SVC_TREASURY_PK: DEV_TREASURY_PK });
    expect(error).toMatchObject({ name: "DevelopmentKeyRefusedError", variable: "SVC_TREASURY_PK", predicate: "listen_host" });
  });

  it("accepts localhost and IPv6 loopback for the listen and RPC hosts", () => {
    const warnings = run({ ...devTreasury, listen: { host: "::1" }, network: { rpc_url: "http://localhost:8545" } }, devEnv);
    expect(warnings.map((w) => w.code)).toEqual(["development_key", "development_key"]);
    expect(run({ ...devTreasury, listen: { host: "localhost" }, network: { rpc_url: "http://[::1]:8545" } }, devEnv)).toHaveLength(2);
  });

  it("pins the refusal message", () => {
    expect(() => run({ profile: "testnet" }, { SVC_RELAYER_PK: DEV_RELAYER_PK })).toThrowErrorMatchingInlineSnapshot(`
      [DevelopmentKeyRefusedError: SVC_RELAYER_PK is a well-known development key, refused because the profile is not \`local\`.

      Details: development keys are accepted only with profile \`local\`, a loopback listen host, a loopback RPC host and chain id 31337]
    `);
  });
});

describe("checkStartupRules: profile local", () => {
  it("refuses a chain other than 31337", () => {
    const error = errorOf({ network: { chain_id: 8453 } });
    expect(error).toBeInstanceOf(LocalProfileChainError);
    expect(error).toMatchObject({
      chainId: 8453,
      message: "Profile `local` has no prover on chain 8453: it runs only on the local chain 31337.",
    });
  });

  it("does not apply to other profiles", () => {
    expect(apartFromLinkability(run({ profile: "testnet", network: { chain_id: 8453 }, providers: PROVIDERS }, MINTER))).toEqual([]);
  });
});

describe("checkStartupRules: providers", () => {
  it.each([["testnet"], ["production"], [undefined]])("requires a [providers.<name>] table for profile %s", (profile) => {
    const error = errorOf({ profile });
    expect(error).toBeInstanceOf(ProviderCredentialsRequiredError);
    expect(String(error)).toContain("[providers.<name>]");
  });

  it("does not require providers under profile local", () => {
    expect(run({})).toEqual([]);
  });
});

describe("checkStartupRules: SVC_ADMIN_TOKEN", () => {
  const noToken = { SVC_ADMIN_TOKEN: undefined };

  it("is optional for profile local on a loopback host", () => {
    expect(run({}, noToken)).toEqual([]);
  });

  it("is required for an unset profile, even on loopback with chain 31337: the profile is never inferred", () => {
    const overrides = { profile: undefined };
    const config = parseConfig(buildConfigTable(overrides), { configDir: "/" });
    expect(config.profile).toBeUndefined();
    const error = errorOf(overrides, noToken);
    expect(error).toBeInstanceOf(AdminTokenRequiredError);
    expect(error).toBeInstanceOf(MissingSecretError);
    expect(error).toMatchObject({
      variable: "SVC_ADMIN_TOKEN",
      shortMessage: "SVC_ADMIN_TOKEN is not set; it is required because the profile is unset (an unset profile is non-local).",
    });
    expect(apartFromLinkability(run({ ...overrides, providers: PROVIDERS }))).toEqual([]);
  });

  it.each(["testnet", "production"])("is required for profile %s", (profile) => {
    expect(errorOf({ profile }, noToken)).toMatchObject({
      name: "AdminTokenRequiredError",
      shortMessage: `SVC_ADMIN_TOKEN is not set; it is required because the profile is \`${profile}\`.`,
    });
  });

  it.each(["0.0.0.0", "::", "192.168.1.10", "svc.example"])("is required for profile local bound to %s", (host) => {
    expect(errorOf({ listen: { host } }, noToken)).toMatchObject({
      name: "AdminTokenRequiredError",
      shortMessage: "SVC_ADMIN_TOKEN is not set; it is required because listen.host is not a loopback address.",
    });
  });

  it("explains the requirement through adminTokenRequiredReason", () => {
    const config = parseConfig(buildConfigTable(), { configDir: "/" });
    expect(adminTokenRequiredReason(config)).toBeUndefined();
    expect(adminTokenRequiredReason({ ...config, profile: "production" })).toBe("the profile is `production`");
  });
});

describe("checkStartupRules: custodial treasury", () => {
  it("refuses a custodial treasury that is not the address of SVC_TREASURY_PK", () => {
    const error = errorOf({ settlement: { treasury: "0x7777777777777777777777777777777777777777" } });
    expect(error).toBeInstanceOf(TreasuryKeyMismatchError);
    expect(String(error)).not.toContain(buildEnv().SVC_TREASURY_PK?.slice(2));
  });

  it("accepts any treasury in split mode", () => {
    const splitter = "0x7777777777777777777777777777777777777777";
    expect(run({ settlement: { treasury: splitter }, fee: { recipient: undefined, splitter } })).toEqual([]);
  });

  it("accepts any treasury without a fee", () => {
    expect(run({ settlement: { treasury: "0x7777777777777777777777777777777777777777" }, fee: undefined })).toEqual([]);
  });
});

describe("checkStartupRules: warnings", () => {
  it('warns when settlement.journal is "none"', () => {
    expect(run({ settlement: { journal: "none" } })).toEqual([
      {
        code: "journal_disabled",
        message: 'settlement.journal is "none": accepted payments not yet finalized are lost on restart',
      },
    ]);
  });

  it("does not warn about a journal left out under [storage]: the journal is the database's", () => {
    expect(run({ settlement: { journal: undefined }, storage: { url: "postgres://svc@db/svc" } })).toEqual([]);
  });

  it("warns about credentials in the RPC URL without quoting them", () => {
    const warnings = apartFromLinkability(
      run({ profile: "testnet", network: { rpc_url: "https://me:s3cretpass@rpc.example/?apikey=k3yvalue" }, providers: PROVIDERS }, MINTER),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.code).toBe("rpc_url_credentials");
    expect(warnings[0]?.message).toContain('userinfo, query parameter "apikey"');
    expect(warnings[0]?.message).not.toContain("s3cretpass");
    expect(warnings[0]?.message).not.toContain("k3yvalue");
  });

  it("warns once per RPC endpoint with credentials, naming its key", () => {
    const rpc_urls = ["https://rpc.example/", "https://rpc2.example/v3/0123456789abcdef0123456789abcdef", "https://rpc3.example/?token=k3yvalue"];
    const warnings = apartFromLinkability(run({ profile: "testnet", network: { rpc_url: undefined, rpc_urls }, providers: PROVIDERS }, MINTER));
    expect(warnings.map((warning) => warning.message)).toEqual([
      "network.rpc_urls[1] embeds credentials (path segment 2); it is printed redacted, but keep credentials out of the file where the provider allows",
      'network.rpc_urls[2] embeds credentials (query parameter "token"); it is printed redacted, but keep credentials out of the file where the provider allows',
    ]);
  });
});

const codes = (warnings: ReturnType<typeof run>) => warnings.map((warning) => warning.code);

describe("checkStartupRules: what links burns to mints on-chain", () => {
  const testnet = { profile: "testnet", network: { chain_id: 8453 }, providers: PROVIDERS };
  const unset = { profile: undefined, network: { chain_id: 8453 }, providers: PROVIDERS };

  it.each([["testnet"], ["production"]])("refuses profile %s without SVC_MINTER_PK, naming the variable", (profile) => {
    const error = errorOf({ ...testnet, profile });
    expect(error).toBeInstanceOf(SeparateMinterRequiredError);
    expect(error).toMatchObject({ code: "separate_minter_required", variable: "SVC_MINTER_PK", reason: "unset" });
    expect(String(error)).toContain(`Profile \`${profile}\` needs a minter key of its own: SVC_MINTER_PK is unset.`);
  });

  it("refuses a minter key equal to the relayer's without quoting it", () => {
    const relayerPk = buildEnv({}).SVC_RELAYER_PK ?? "";
    const error = errorOf(testnet, { SVC_MINTER_PK: relayerPk.toUpperCase().replace("0X", "0x") });
    expect(error).toMatchObject({ reason: "equals_relayer" });
    expect(String(error)).toContain("SVC_MINTER_PK equals SVC_RELAYER_PK");
    expect(String(error).toLowerCase()).not.toContain(relayerPk.slice(2).toLowerCase());
  });

  it("warns under an unset profile when one key relays and mints and when mints follow their burns", () => {
    expect(codes(run({ ...unset, finalize: { min_delay_seconds: 0, max_delay_seconds: 0 } }))).toEqual(["linkable_hands", "linkable_schedule"]);
    expect(codes(run({ ...testnet, finalize: { min_delay_seconds: 0, max_delay_seconds: 0 } }, MINTER))).toEqual(["linkable_schedule"]);
  });

  it("has no schedule to warn about under testnet's default, the recommended policy", () => {
    expect(codes(run(testnet, MINTER))).toEqual([]);
  });

  it("says which: a minter key equal to the relayer's counts as one key", () => {
    const relayerPk = buildEnv({}).SVC_RELAYER_PK ?? "";
    const [hands] = run(unset, { SVC_MINTER_PK: relayerPk });
    expect(hands?.message).toContain("SVC_MINTER_PK equals SVC_RELAYER_PK");
    expect(hands?.message).not.toContain(relayerPk.slice(2));
  });

  it("is quiet with a separate minter and a finalize schedule, and under profile local", () => {
    const policy = { finalize: { min_delay_seconds: 60, max_delay_seconds: 1800, min_anonymity_set: 3 } };
    expect(run({ ...testnet, ...policy }, MINTER)).toEqual([]);
    expect(run({})).toEqual([]);
  });
});

describe("checkStartupRules: a journal wherever real payments are accepted", () => {
  const testnet = { profile: "testnet", network: { chain_id: 8453 }, providers: PROVIDERS, settlement: { journal: "none" } };

  it("refuses journal none under testnet or production with a real prover, naming both ways out", () => {
    for (const profile of ["testnet", "production"]) {
      const error = errorOf({ ...testnet, profile, prover: { kind: "http", url: "https://prover.internal.example/prove" } });
      expect(error).toBeInstanceOf(JournalRequiredError);
      expect(String(error)).toContain("settlement.journal");
      expect(String(error)).toContain("[storage]");
    }
  });

  it("only warns where nothing is accepted (the fixture prover off local) and under profile local", () => {
    expect(codes(run(testnet, MINTER))).toContain("journal_disabled");
    expect(codes(run({ settlement: { journal: "none" } }))).toEqual(["journal_disabled"]);
  });
});

describe("RPC chain id", () => {
  it("passes when the RPC reports network.chain_id", () => {
    expect(run({}, {}, 31337)).toEqual([]);
    expect(run({}, {}, 31337n)).toEqual([]);
  });

  it("refuses a different chain id", () => {
    const error = errorOf({}, {}, 1);
    expect(error).toBeInstanceOf(ChainIdMismatchError);
    expect(error).toMatchObject({ configured: 31337, reported: 1 });
  });

  it("is also a standalone check", () => {
    const config = parseConfig(buildConfigTable(), { configDir: "/" });
    expect(() => assertRpcChainId(config, 10n)).toThrowErrorMatchingInlineSnapshot(
      `[ChainIdMismatchError: network.chain_id is 31337 but the RPC at network.rpc_url reports chain 10.]`,
    );
  });
});
