/**
 * Writes a variant of the stack's `facilitator.toml` for one bench facilitator. The file is edited line by
 * line (each key the bench changes appears exactly once in the rendered template), so the rest of the local
 * configuration stays exactly what `make stack` writes.
 */
import { readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { BenchError } from "./benchError.js";

/** The keys a bench facilitator changes. */
export type FacilitatorConfigOverrides = {
  /** `network.rpc_url`: the counting proxy in front of anvil. */
  rpcUrl: string;
  /** `network.indexer_url`, when the bench runs its own indexer. */
  indexerUrl?: string;
  /** `settlement.journal`, relative to the written file's folder. */
  journal: string;
  /** `settlement.challenge_ttl_seconds`. */
  challengeTtlSeconds: number;
  /** `daemon.finalize_interval_ms`. */
  finalizeIntervalMs: number;
  /** `daemon.max_open_challenges`. */
  maxOpenChallenges: number;
  /** `daemon.burn_address_pool_size` (added to `[daemon]` when the template lacks it). */
  burnAddressPoolSize: number;
  /** `daemon.burn_address_workers` (added to `[daemon]` when the template lacks it). */
  burnAddressWorkers: number;
  /** The `[finalize]` scheduling policy (the table is added when the template lacks it); absent: the template's. */
  finalizePolicy?: FinalizePolicy;
  /** `finalize.witnesses`, where a mint's Merkle paths come from (the `[finalize]` table is added when the template lacks it); absent: the template's. */
  witnesses?: "self" | "indexer";
  /** `network.confirmations` (added to `[network]` when the template lacks it); absent: the template's. */
  confirmations?: number;
  /** `settlement.permit_receipt_timeout_ms` (added to `[settlement]` when the template lacks it); absent: the template's. */
  permitReceiptTimeoutMs?: number;
  /** `gas.replace_after_seconds` (the `[gas]` table is added when the template lacks it); absent: the template's. */
  replaceAfterSeconds?: number;
};

/** The keys of the facilitator's `[finalize]` table: a random delay in [min, max], released early only once k same-amount payments wait. */
export type FinalizePolicy = {
  /** `finalize.min_delay_seconds`. */
  minDelaySeconds: number;
  /** `finalize.max_delay_seconds`. */
  maxDelaySeconds: number;
  /** `finalize.min_anonymity_set` (k). */
  minAnonymitySet: number;
};

/** The daemon's default `burn_address_pool_size`, which the bench runs with (the stack lowers it for tests). */
export const BENCH_BURN_ADDRESS_POOL_SIZE = 16;

/** Burn-address worker threads of a bench facilitator: the daemon's default (one per core), set explicitly so the bench knows how many to find. */
export const BENCH_BURN_ADDRESS_WORKERS = availableParallelism();

/** The key `key` was not found exactly once in the template. */
export class ConfigTemplateError extends BenchError {
  override name = "ConfigTemplateError";
}

/** Sets `key` in `[table]`, adding the line right after the table header when the template has none. */
function setOrAddValue(toml: string, table: string, key: string, value: number): string {
  if (new RegExp(`^${key} = `, "m").test(toml)) return setValue(toml, key, value);
  const header = `[${table}]\n`;
  if (!toml.includes(header)) throw new ConfigTemplateError(`expected a [${table}] table in facilitator.toml`);
  return toml.replace(header, `${header}${key} = ${value}\n`);
}

/** {@link setOrAddValue} for a string value (written as a TOML basic string). */
function setOrAddString(toml: string, table: string, key: string, value: string): string {
  if (new RegExp(`^${key} = `, "m").test(toml)) return setValue(toml, key, value);
  const header = `[${table}]\n`;
  if (!toml.includes(header)) throw new ConfigTemplateError(`expected a [${table}] table in facilitator.toml`);
  return toml.replace(header, `${header}${key} = ${JSON.stringify(value)}\n`);
}

function setValue(toml: string, key: string, value: string | number): string {
  const pattern = new RegExp(`^${key} = .*$`, "gm");
  const matches = toml.match(pattern) ?? [];
  if (matches.length !== 1) throw new ConfigTemplateError(`expected one \`${key} = ...\` line in facilitator.toml, found ${matches.length}`);
  return toml.replace(pattern, `${key} = ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
}

/**
 * Reads `template`, applies `overrides` (and `listen.port = 0`), writes the result to `target`.
 * @example
 * await writeFacilitatorConfig(stack.files.facilitatorToml, join(dir, "f1.toml"), { rpcUrl: proxy.url, ... });
 */
export async function writeFacilitatorConfig(template: string, target: string, overrides: FacilitatorConfigOverrides): Promise<void> {
  let toml = await readFile(template, "utf8");
  toml = setValue(toml, "rpc_url", overrides.rpcUrl);
  if (overrides.indexerUrl !== undefined) toml = setValue(toml, "indexer_url", overrides.indexerUrl);
  toml = setValue(toml, "journal", overrides.journal);
  toml = setValue(toml, "port", 0);
  toml = setValue(toml, "challenge_ttl_seconds", overrides.challengeTtlSeconds);
  toml = setValue(toml, "finalize_interval_ms", overrides.finalizeIntervalMs);
  toml = setValue(toml, "max_open_challenges", overrides.maxOpenChallenges);
  toml = setOrAddValue(toml, "daemon", "burn_address_pool_size", overrides.burnAddressPoolSize);
  toml = setOrAddValue(toml, "daemon", "burn_address_workers", overrides.burnAddressWorkers);
  if (overrides.confirmations !== undefined) toml = setOrAddValue(toml, "network", "confirmations", overrides.confirmations);
  if (overrides.permitReceiptTimeoutMs !== undefined) toml = setOrAddValue(toml, "settlement", "permit_receipt_timeout_ms", overrides.permitReceiptTimeoutMs);
  if (overrides.replaceAfterSeconds !== undefined) {
    if (!toml.includes("[gas]\n")) toml = `${toml.endsWith("\n") ? toml : `${toml}\n`}\n[gas]\n`;
    toml = setOrAddValue(toml, "gas", "replace_after_seconds", overrides.replaceAfterSeconds);
  }
  const policy = overrides.finalizePolicy;
  if (policy !== undefined) {
    if (!toml.includes("[finalize]\n")) toml = `${toml.endsWith("\n") ? toml : `${toml}\n`}\n[finalize]\n`;
    toml = setOrAddValue(toml, "finalize", "min_anonymity_set", policy.minAnonymitySet);
    toml = setOrAddValue(toml, "finalize", "max_delay_seconds", policy.maxDelaySeconds);
    toml = setOrAddValue(toml, "finalize", "min_delay_seconds", policy.minDelaySeconds);
  }
  if (overrides.witnesses !== undefined) {
    if (!toml.includes("[finalize]\n")) toml = `${toml.endsWith("\n") ? toml : `${toml}\n`}\n[finalize]\n`;
    toml = setOrAddString(toml, "finalize", "witnesses", overrides.witnesses);
  }
  await writeFile(target, toml);
}
