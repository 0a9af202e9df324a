/**
 * The facilitator configuration file as one zod schema: every key of the spec's configuration table, with
 * the defaults and minimums of its Limits section, and the output type taken from the schema.
 *
 * Conventions the schema fixes where the spec is silent:
 * - Keys keep their TOML spelling (`settlement.challenge_ttl_seconds`) in the parsed object, so code, docs and
 *   error messages use one name per setting.
 * - Every table is strict: an unknown key is an error, never ignored (a typo in a money setting must not
 *   fall back to a default; a secret pasted into the file must not sit there unnoticed).
 * - Addresses are kept exactly as written; mixed case must be a valid EIP-55 checksum and the zero address is
 *   refused (a zero treasury or fee recipient would burn funds).
 * - Base-unit amounts accept a TOML integer or a decimal string (18-decimal amounts exceed a double) and
 *   become `bigint`.
 * - `settlement.journal = "none"` becomes `null`; a relative path is resolved later against the
 *   configuration file's folder (see `parseConfig`). With `[storage]` the journal lives in the database: the key
 *   may be omitted and then becomes `null` as well.
 * - The `[fee]` table becomes a discriminated union on `mode`: `custodial` when `fee.recipient` is set,
 *   `split` when `fee.splitter` is set.
 * - The `[prover]` table becomes a discriminated union on `kind`: `command` carries its program and arguments,
 *   `http` its URL, `snarkjs` its circuit files (`wasm`, `zkey`), `fixture` none of them; a key of another kind
 *   is refused.
 */
import { isIP } from "node:net";
import { DEFAULT_PROTOCOL_VERSION } from "@svc/scheme";
import { isAddress, isAddressEqual, zeroAddress } from "viem";
import { z } from "zod";
import { NETWORK_PRESETS } from "./networkPresets.js";

/** By default the burn-address stock may grow to this many times its configured size under sustained demand. */
export const DEFAULT_BURN_ADDRESS_POOL_GROWTH = 4;

/** Largest zERC20 transfer value: the token reverts above 2^248 - 1, so no larger amount can ever be paid. */
export const MAX_TRANSFER_VALUE = (1n << 248n) - 1n;

/** Most confirmations `network.confirmations` takes: beyond this a payer waits minutes on any chain. */
export const MAX_CONFIRMATIONS = 64;
/** Deepest `network.finality_depth`: Ethereum's finality (two epochs) is 64 blocks. */
export const MAX_FINALITY_DEPTH = 10_000;

/** Issue tags that `parseConfig` turns into their own error classes rather than a generic invalid value. */
export const CONFIG_RULE = {
  feeModeBoth: "fee_mode_both",
  feeModeNeither: "fee_mode_neither",
  splitterMismatch: "splitter_mismatch",
} as const;

const addressField = z
  .templateLiteral(["0x", z.string().regex(/^[0-9a-fA-F]{40}$/)], {
    error: "expected an address: 0x and 40 hex digits",
  })
  .refine((value) => isSingleCase(value) || isAddress(value, { strict: true }), {
    error: "mixed-case address with an invalid EIP-55 checksum",
  })
  .refine((value) => !isAddressEqual(value, zeroAddress), { error: "the zero address is not allowed" });

function isSingleCase(value: string): boolean {
  const digits = value.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase();
}

function urlField(protocols: readonly string[]) {
  const expected = protocols.map((p) => p.replace(/:$/, "")).join(" or ");
  // The value is never echoed in the error: an RPC URL can carry an API key.
  return z.string({ error: `expected a ${expected} URL string` }).refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
    error: `expected a ${expected} URL`,
  });
}

function integerField(minimum: number, maximum?: number) {
  const range = maximum === undefined ? `at least ${minimum}` : `between ${minimum} and ${maximum}`;
  const base = z.int({ error: `expected an integer ${range}` }).min(minimum, { error: `must be ${range}` });
  return maximum === undefined ? base : base.max(maximum, { error: `must be ${range}` });
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

// smol-toml yields a number for safe integers and a bigint above 2^53 (we parse with `integersAsBigInt: "asNeeded"`).
const baseUnitsField = z.unknown().transform((value, ctx): bigint => {
  let units: bigint | undefined;
  if (typeof value === "bigint") units = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) units = BigInt(value);
  else if (typeof value === "string" && DECIMAL.test(value) && value.length <= 80) units = BigInt(value);
  if (units === undefined) {
    ctx.addIssue({ code: "custom", message: 'expected base units: a TOML integer or a decimal string such as "1000"' });
    return z.NEVER;
  }
  if (units < 0n || units > MAX_TRANSFER_VALUE) {
    ctx.addIssue({ code: "custom", message: "must be between 0 and 2^248 - 1 base units" });
    return z.NEVER;
  }
  return units;
});

/** Whether `value` is an IP address or a CIDR block (`addr/prefix`), the forms the proxy trust setting takes. */
function isIpOrCidr(value: string): boolean {
  const slash = value.indexOf("/");
  if (slash === -1) return isIP(value) !== 0;
  const family = isIP(value.slice(0, slash));
  const prefix = value.slice(slash + 1);
  if (family === 0 || !/^[0-9]{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

// A single string is the same as a one-element list, as in the Express trust-proxy setting.
const trustedProxiesField = z
  .preprocess(
    (value) => (typeof value === "string" ? [value] : value),
    z.array(
      z.string({ error: "expected an IP address or CIDR block string" }).refine(isIpOrCidr, {
        error: "expected an IP address or CIDR block (for example 10.0.0.1 or 10.0.0.0/8)",
      }),
      { error: "expected a string or a list of strings" },
    ),
  )
  .optional();

const rpcUrlField = urlField(["http:", "https:", "ws:", "wss:"]);

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOSTNAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*\\.?$`);

const hostField = z.string({ error: "expected a host name or IP address string" }).refine((value) => isIP(value) !== 0 || HOSTNAME.test(value), {
  error: "expected a host name or a bare IP address (no brackets, no port)",
});

function table<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.strictObject(shape, { error: "expected a table" });
}

// A preset names a published deployment and fills chain_id, token, verifier and protocol; keys written beside
// it must agree with it (a typo'd address must not silently win or lose). Without a preset they are required.
const networkTable = table({
  preset: z
    .string({ error: "expected a preset name such as base-sepolia/zusdc" })
    .refine((name) => Object.hasOwn(NETWORK_PRESETS, name), { error: "not a published deployment: see the presets in the facilitator README" })
    .optional(),
  // One endpoint (`rpc_url`) or several tried in order (`rpc_urls`, see chain/createRpcTransport.ts); exactly one
  // of the two keys. Both become `rpc_urls`, so the rest of the code has one shape.
  rpc_url: rpcUrlField.optional(),
  rpc_urls: z.array(rpcUrlField, { error: "expected a list of RPC URL strings" }).min(1, { error: "expected at least one URL" }).optional(),
  indexer_url: urlField(["http:", "https:"]),
  decider_url: urlField(["http:", "https:"]),
  chain_id: integerField(1).optional(),
  token: addressField.optional(),
  verifier: addressField.optional(),
  // The hub is a contract on the hub chain only; a preset's verifier knows its hub by endpoint id.
  hub: addressField.optional(),
  protocol: z.enum(["zerc20-v1", "zerc20-v2"], { error: 'expected "zerc20-v2" (every published deployment) or "zerc20-v1"' }).optional(),
  // How deep a burn must be before the payment is accepted; unset: the preset's (1 or 2), else 1.
  confirmations: integerField(1, MAX_CONFIRMATIONS).optional(),
  // The token's deployment block: where `[finalize] witnesses = "self"` starts reading the transfer tree. Unset:
  // block 0, which costs one log request per 2,000 blocks of chain before the first mint on a long chain.
  deploy_block: integerField(0).optional(),
  // How deep a block must be before it cannot be reorganised away; unset: the node's `finalized` block, or
  // `confirmations` on the local chain (anvil's `finalized` trails 64 blocks behind a chain mining per transaction).
  finality_depth: integerField(1, MAX_FINALITY_DEPTH).optional(),
})
  .superRefine((network, ctx) => {
    if (network.rpc_url === undefined && network.rpc_urls === undefined) {
      ctx.addIssue({ code: "custom", path: ["rpc_url"], message: "set network.rpc_url (one endpoint) or network.rpc_urls (a list of endpoints)" });
    }
    if (network.rpc_url !== undefined && network.rpc_urls !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["rpc_urls"],
        message: "network.rpc_url and network.rpc_urls are both set: keep one (rpc_url is a one-element rpc_urls)",
      });
    }
    // The same endpoint twice would fail over to itself; compared parsed, so `http://a:80` equals `http://a/`.
    const seen = new Map<string, number>();
    (network.rpc_urls ?? []).forEach((url, index) => {
      const normalized = new URL(url).href;
      const first = seen.get(normalized);
      if (first !== undefined) ctx.addIssue({ code: "custom", path: ["rpc_urls", index], message: `the same endpoint as network.rpc_urls[${first}]` });
      else seen.set(normalized, index);
    });
    const preset = network.preset === undefined ? undefined : NETWORK_PRESETS[network.preset];
    if (network.preset !== undefined && preset === undefined) return;
    if (preset === undefined) {
      for (const key of ["chain_id", "token", "verifier", "hub"] as const) {
        if (network[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: "required without network.preset" });
      }
      return;
    }
    const differs = (key: string, same: boolean) => {
      if (!same) ctx.addIssue({ code: "custom", path: [key], message: `differs from the preset ${network.preset} (leave it out to use the preset's)` });
    };
    differs("chain_id", network.chain_id === undefined || network.chain_id === preset.chainId);
    differs("token", network.token === undefined || isAddressEqual(network.token, preset.token));
    differs("verifier", network.verifier === undefined || isAddressEqual(network.verifier, preset.verifier));
    differs("protocol", network.protocol === undefined || network.protocol === preset.protocol);
  })
  .superRefine((network, ctx) => {
    const confirmations = network.confirmations ?? (network.preset === undefined ? 1 : (NETWORK_PRESETS[network.preset]?.confirmations ?? 1));
    if (network.finality_depth !== undefined && network.finality_depth < confirmations) {
      ctx.addIssue({ code: "custom", path: ["finality_depth"], message: `must be at least network.confirmations (${confirmations})` });
    }
  })
  .transform(({ preset: presetName, rpc_url, rpc_urls, ...network }) => {
    const preset = presetName === undefined ? undefined : NETWORK_PRESETS[presetName];
    return {
      ...network,
      // The refinement above guarantees exactly one of the two keys is set.
      rpc_urls: rpc_urls ?? (rpc_url === undefined ? [] : [rpc_url]),
      // Which key the file used, so messages name the key the operator wrote (rpcUrlKey in rpcUrlKey.ts).
      rpc_key: rpc_urls === undefined ? ("rpc_url" as const) : ("rpc_urls" as const),
      ...(presetName === undefined ? {} : { preset: presetName }),
      // Both defined: the refinement above required them without a preset.
      chain_id: network.chain_id ?? preset?.chainId ?? 0,
      token: network.token ?? preset?.token ?? zeroAddress,
      verifier: network.verifier ?? preset?.verifier ?? zeroAddress,
      // The deployed version by default: a burn address of the wrong version can never be withdrawn.
      protocol: network.protocol ?? preset?.protocol ?? DEFAULT_PROTOCOL_VERSION,
      confirmations: network.confirmations ?? preset?.confirmations ?? 1,
    };
  });

const listenTable = table({
  host: hostField.default("127.0.0.1"),
  // 0 asks the OS for a free port (tests); the `started` event reports the port actually bound.
  port: integerField(0, 65_535).default(4032),
  trusted_proxies: trustedProxiesField,
});

const settlementTable = table({
  treasury: addressField,
  permit_burner: addressField.optional(),
  journal: z
    .string({ error: 'expected a file path or "none"' })
    .min(1, { error: 'expected a file path or "none"' })
    .transform((value) => (value === "none" ? null : value))
    .optional(),
  challenge_ttl_seconds: integerField(1).default(300),
  expired_challenge_retention_seconds: integerField(0).default(3600),
  // How long archived records of closed payments are kept (file `.archive` and PostgreSQL `journal_archive`);
  // unset keeps them for the operator's own records policy.
  archive_retention_days: integerField(1, 36_500).optional(),
  // How long a late burn stays in the live journal (listed by status and the operator page) before it is
  // archived with its closed payment, counted from its record.
  late_burn_retention_days: integerField(1, 36_500).default(90),
  // The spec leaves the permit receipt polling bound open: past it /settle answers pending_burn.
  permit_receipt_timeout_ms: integerField(100, 120_000).default(15_000),
});

const feeTable = table({
  bps: integerField(0, 10_000),
  min_per_payment: baseUnitsField,
  charge_to: z.enum(["payer", "provider"], { error: 'expected "payer" or "provider"' }),
  recipient: addressField.optional(),
  splitter: addressField.optional(),
  // One fee sweep (or distribution) per interval, never one per payment; unset: 0 under profile local, 3600 elsewhere.
  sweep_interval_seconds: integerField(0, 604_800).optional(),
});

const daemonTable = table({
  finalize_interval_ms: integerField(1000).default(15_000),
  shutdown_grace_ms: integerField(0).default(10_000),
  // 0 disables the shared per-key limit; negative values are refused because the spec gives them no meaning here.
  rate_limit_per_min: integerField(0).default(120),
  max_open_challenges: integerField(1).default(1000),
  // Burn addresses kept pre-derived at least (milliseconds to a second of CPU each, by version and Poseidon
  // path; far more with poseidon-lite): more absorbs bursts of 402s, fewer saves start-up CPU on small machines.
  burn_address_pool_size: integerField(1, 1024).default(16),
  // The most the stock grows to under sustained demand (challenges/stockSizing.ts); unset: four times the size.
  // Bounded: addresses derived ahead of demand cost CPU, and a memory-only stock loses them on restart.
  burn_address_pool_max_size: integerField(1, 4096).optional(),
  // Threads deriving burn addresses; unset means one per core (os.availableParallelism()).
  burn_address_workers: integerField(1, 256).optional(),
  // The spec lets 0 "or less" disable the per-key issuance rate, so any integer is accepted.
  challenge_per_key_per_min: z.int({ error: "expected an integer (0 or less disables)" }).default(20),
  // /metrics reveals traffic and balances, so it sits behind the admin token unless the operator opts out.
  public_metrics: z.boolean({ error: "expected true or false" }).default(false),
  // Lowest severity logged; debug adds the finalize loop's per-entry progress. `start --log-level` overrides it.
  log_level: z.enum(["debug", "info", "warn", "error"], { error: 'expected "debug", "info", "warn" or "error"' }).default("info"),
});

// When accepted payments are minted (finalize/finalizeSchedule.ts). Unset keys take the profile's default:
// the recommended policy under testnet and production (private by default), 0/0/1 elsewhere (the next pass,
// as profile local and its demos want). A week bounds the delay because funds wait at the burn address that long.
const finalizeTable = table({
  min_delay_seconds: integerField(0, 604_800).optional(),
  max_delay_seconds: integerField(0, 604_800).optional(),
  min_anonymity_set: integerField(1, 10_000).optional(),
  // Where a mint's Merkle paths come from: `self` follows the transfer tree from the token's logs on our own RPC
  // (no indexer sees which leaves are ours); `indexer` asks the indexer's `/proofs`, mixed with decoy leaves.
  witnesses: z.enum(["self", "indexer"], { error: 'expected "self" or "indexer"' }).default("self"),
});

type FinalizeTable = z.output<typeof finalizeTable>;

/** Where a mint's Merkle paths come from (`[finalize] witnesses`). */
export type WitnessSource = FinalizeTable["witnesses"];

/** The `[finalize]` table's schedule keys, each resolved. */
export type FinalizeConfig = { [K in Exclude<keyof FinalizeTable, "witnesses">]-?: NonNullable<FinalizeTable[K]> };

/** The policy facilitator/README.md recommends, and the default under profiles testnet and production. */
export const RECOMMENDED_FINALIZE_POLICY: FinalizeConfig = { min_delay_seconds: 60, max_delay_seconds: 1800, min_anonymity_set: 3 };

/** Mints in the next pass: the default under profile local (and an unset profile, which moves no funds). */
export const FAST_FINALIZE_POLICY: FinalizeConfig = { min_delay_seconds: 0, max_delay_seconds: 0, min_anonymity_set: 1 };

/** The table's keys over the profile's defaults. */
export function resolveFinalizePolicy(profile: string | undefined, finalize: FinalizeTable): FinalizeConfig {
  const defaults = profile === "testnet" || profile === "production" ? RECOMMENDED_FINALIZE_POLICY : FAST_FINALIZE_POLICY;
  return {
    min_delay_seconds: finalize.min_delay_seconds ?? defaults.min_delay_seconds,
    max_delay_seconds: finalize.max_delay_seconds ?? defaults.max_delay_seconds,
    min_anonymity_set: finalize.min_anonymity_set ?? defaults.min_anonymity_set,
  };
}

// Stuck and dropped transactions (chain/createTransactionMonitor.ts). 30 s is a few blocks on every chain the
// daemon runs on: long enough not to bump a transaction that is merely waiting for the next block. Fractions
// are allowed for tests on anvil. Without max_fee_gwei replacements follow the market without a ceiling.
// History is switched on by its environment group; how long it keeps closed payments is configuration.
const historyTable = table({
  // Unset keeps every record, as the specification's history does by default.
  retention_days: integerField(1, 36_500).optional(),
});

const gasTable = table({
  replace_after_seconds: z
    .number({ error: "expected a number of seconds between 0.1 and 3600" })
    .min(0.1, { error: "must be between 0.1 and 3600" })
    .max(3600, { error: "must be between 0.1 and 3600" })
    .default(30),
  max_fee_gwei: z
    .number({ error: "expected a positive number of gwei" })
    .positive({ error: "must be a positive number of gwei" })
    .max(1_000_000, { error: "must be at most 1000000 gwei" })
    .optional(),
});

// Shared state for several instances. The password never sits in the file (it would be printed and copied
// around with it): it comes from SVC_STORAGE_PASSWORD.
const storageTable = table({
  url: urlField(["postgres:", "postgresql:"]).refine((value) => new URL(value).password === "", {
    error: "must not carry a password: set SVC_STORAGE_PASSWORD instead",
  }),
  max_connections: integerField(1, 1000).default(10),
  // How long a finalize lease outlives an instance that stopped mid-pass before another takes the payment.
  finalize_lease_ms: integerField(1000, 3_600_000).default(60_000),
});

// How the finalize loop obtains withdraw proofs (finalize/provers/). `fixture` is the local stack's signed
// stand-in; `command` runs a program per proof (witness JSON on stdin, proof on stdout); `http` POSTs the
// witness to a service; `snarkjs` proves single teleports in this process's worker threads from a circom
// circuit's witness calculator and Groth16 proving key. The keys of the other kinds are refused rather than
// ignored: a `url` under the default `fixture` kind most likely means `kind = "http"` was forgotten.
const COMMAND_LIST = 'expected a non-empty list of strings: ["program", "argument", ...]';

const circuitFileField = z.string({ error: "expected a file path" }).min(1, { error: "expected a file path" });

const proverKeys = table({
  kind: z.enum(["fixture", "command", "http", "snarkjs"], { error: 'expected "fixture", "command", "http" or "snarkjs"' }).default("fixture"),
  // No shell: the program and its arguments exactly as listed.
  command: z
    .array(z.string({ error: "expected a string" }), { error: COMMAND_LIST })
    .min(1, { error: COMMAND_LIST })
    .pipe(z.tuple([z.string().min(1, { error: "the program (first element) must not be empty" })], z.string()))
    .optional(),
  // May carry credentials (userinfo, a key in the path or query): never echoed, redacted in logs.
  url: urlField(["http:", "https:"]).optional(),
  // The circuit's witness calculator (circom's .wasm) and Groth16 proving key (.zkey); checked at start.
  wasm: circuitFileField.optional(),
  zkey: circuitFileField.optional(),
  // Bounds one proof's run, not its wait for a free slot.
  timeout_ms: integerField(1000, 3_600_000).default(120_000),
  concurrency: integerField(1, 64).default(1),
});

const proverTable = proverKeys
  .superRefine((prover, ctx) => {
    for (const [key, kind] of [
      ["command", "command"],
      ["url", "http"],
      ["wasm", "snarkjs"],
      ["zkey", "snarkjs"],
    ] as const) {
      if (prover.kind === kind && prover[key] === undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `required when prover.kind = "${kind}"` });
      }
      if (prover.kind !== kind && prover[key] !== undefined) {
        ctx.addIssue({ code: "custom", path: [key], message: `only used with prover.kind = "${kind}"; set the kind or remove the key` });
      }
    }
  })
  .transform(proverKind);

type ProverKeys = z.output<typeof proverKeys>;

function proverKind({ kind, command, url, wasm, zkey, timeout_ms, concurrency }: ProverKeys) {
  // The refinement above guarantees the kind's own keys are set (and no other kind's) before this runs.
  if (kind === "command" && command !== undefined) return { kind, command, timeout_ms, concurrency };
  if (kind === "http" && url !== undefined) return { kind, url, timeout_ms, concurrency };
  if (kind === "snarkjs" && wasm !== undefined && zkey !== undefined) return { kind, wasm, zkey, timeout_ms, concurrency };
  if (kind === "fixture") return { kind, timeout_ms, concurrency };
  return z.NEVER;
}

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

// One authenticated caller of the money endpoints. Only the key's SHA-256 is kept, so the file holds nothing
// that lets anyone call as the provider; the limits default to the daemon's per-IP ones.
const providerTable = table({
  key_sha256: z
    .string({ error: "expected the SHA-256 of the provider key: 64 hex digits" })
    .regex(/^[0-9a-fA-F]{64}$/, { error: "expected the SHA-256 of the provider key: 64 hex digits" })
    .transform((value) => value.toLowerCase()),
  rate_limit_per_min: integerField(0).optional(),
  challenge_per_payer_per_min: z.int({ error: "expected an integer (0 or less disables)" }).optional(),
});

const providersTable = z
  .record(z.string().regex(PROVIDER_NAME, { error: "provider names are 1-64 lowercase letters, digits, - or _" }), providerTable, {
    error: "expected a table of [providers.<name>] tables",
  })
  .superRefine((providers, ctx) => {
    const seen = new Map<string, string>();
    for (const [name, provider] of Object.entries(providers)) {
      const other = seen.get(provider.key_sha256);
      if (other !== undefined) {
        ctx.addIssue({ code: "custom", path: [name, "key_sha256"], message: `same key as providers.${other}; every provider needs its own key` });
      }
      seen.set(provider.key_sha256, name);
    }
  });

/** The configuration file schema; `parseConfig` is the entry point that also maps issues to named errors. */
export const facilitatorConfigSchema = table({
  profile: z.enum(["local", "testnet", "production"], { error: 'expected "local", "testnet" or "production"' }).optional(),
  network: networkTable,
  listen: listenTable.prefault({}),
  settlement: settlementTable,
  fee: feeTable.optional(),
  daemon: daemonTable.prefault({}),
  finalize: finalizeTable.prefault({}),
  gas: gasTable.prefault({}),
  history: historyTable.prefault({}),
  providers: providersTable.optional(),
  storage: storageTable.optional(),
  prover: proverTable.prefault({}),
})
  .superRefine((config, ctx) => {
    if (config.settlement.journal === undefined && config.storage === undefined) {
      ctx.addIssue({ code: "custom", path: ["settlement", "journal"], message: "required without [storage]" });
    }
    const { burn_address_pool_size, burn_address_pool_max_size } = config.daemon;
    if (burn_address_pool_max_size !== undefined && burn_address_pool_max_size < burn_address_pool_size) {
      ctx.addIssue({ code: "custom", path: ["daemon", "burn_address_pool_max_size"], message: "must be at least daemon.burn_address_pool_size" });
    }
    const finalize = resolveFinalizePolicy(config.profile, config.finalize);
    if (finalize.max_delay_seconds < finalize.min_delay_seconds) {
      ctx.addIssue({ code: "custom", path: ["finalize", "max_delay_seconds"], message: "must be at least finalize.min_delay_seconds" });
    }
    const fee = config.fee;
    if (fee === undefined) return;
    if (fee.recipient !== undefined && fee.splitter !== undefined) {
      ctx.addIssue({ code: "custom", path: ["fee"], message: "both modes", params: { rule: CONFIG_RULE.feeModeBoth } });
      return;
    }
    if (fee.recipient === undefined && fee.splitter === undefined) {
      ctx.addIssue({ code: "custom", path: ["fee"], message: "no mode", params: { rule: CONFIG_RULE.feeModeNeither } });
      return;
    }
    if (fee.splitter === undefined) return;
    // The splitter divides by bps on-chain: a zero rate or a fixed minimum cannot be enforced there.
    if (fee.bps < 1) {
      ctx.addIssue({
        code: "custom",
        path: ["fee", "bps"],
        message: "must be at least 1 in split mode (fee.splitter set)",
      });
    }
    if (fee.min_per_payment !== 0n) {
      ctx.addIssue({
        code: "custom",
        path: ["fee", "min_per_payment"],
        message: "must be 0 in split mode (fee.splitter set)",
      });
    }
    if (!isAddressEqual(fee.splitter, config.settlement.treasury)) {
      ctx.addIssue({
        code: "custom",
        path: ["fee", "splitter"],
        message: "must equal settlement.treasury",
        params: { rule: CONFIG_RULE.splitterMismatch },
      });
    }
  })
  .transform(({ fee, settlement, daemon, finalize, ...rest }) => ({
    ...rest,
    finalize: { ...resolveFinalizePolicy(rest.profile, finalize), witnesses: finalize.witnesses },
    daemon: {
      ...daemon,
      // At most 4 × 1024, within the key's own bound.
      burn_address_pool_max_size: daemon.burn_address_pool_max_size ?? DEFAULT_BURN_ADDRESS_POOL_GROWTH * daemon.burn_address_pool_size,
    },
    settlement: { ...settlement, journal: settlement.journal ?? null },
    fee: fee === undefined ? undefined : feeMode(fee),
  }));

type FeeTable = z.output<typeof feeTable>;

function feeMode({ recipient, splitter, ...rate }: FeeTable) {
  // The refinement above guarantees exactly one of the two is set before this transform runs.
  if (splitter !== undefined) return { mode: "split" as const, splitter, ...rate };
  if (recipient !== undefined) return { mode: "custodial" as const, recipient, ...rate };
  return z.NEVER;
}

/** The `[gas]` table: when a stuck transaction is replaced, and the highest fee a replacement pays. */
export type GasConfig = z.output<typeof gasTable>;

/** The `[prover]` table after validation: one shape per `kind` (fixture, command, http, snarkjs). */
export type ProverConfig = z.output<typeof proverTable>;

/** The `[storage]` table: the PostgreSQL database several instances share. */
export type StorageConfig = z.output<typeof storageTable>;

/** A validated facilitator configuration, as `parseConfig` returns it. */
export type FacilitatorConfig = z.output<typeof facilitatorConfigSchema>;

/** The `[fee]` table after validation: custodial (fee recipient) or split (fee splitter) mode. */
export type FeeConfig = NonNullable<FacilitatorConfig["fee"]>;

/** One `[providers.<name>]` table after validation. */
export type ProviderConfig = z.output<typeof providerTable>;

/** A profile named in the file; `undefined` (unset) is treated as non-local. */
export type Profile = NonNullable<FacilitatorConfig["profile"]>;
