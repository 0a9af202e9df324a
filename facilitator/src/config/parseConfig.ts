/**
 * Validates a parsed TOML table against the configuration schema and turns every zod issue into a named
 * error that says which key and why. Relative paths (`settlement.journal`, a `prover.command` program given as
 * a path, `prover.wasm` and `prover.zkey`) resolve against the folder of the configuration file, not the
 * working directory, so the same file works wherever the daemon is started.
 */
import { isAbsolute, resolve } from "node:path";
import type { z } from "zod";

import { FeeModeError, InvalidConfigValueError, MissingConfigKeyError, SplitterMismatchError, UnknownConfigKeyError, type ConfigError } from "./errors.js";
import { CONFIG_RULE, facilitatorConfigSchema, type FacilitatorConfig } from "./facilitatorConfigSchema.js";

/** Options of {@link parseConfig} and {@link safeParseConfig}. */
export type ParseConfigOptions = {
  /** Folder of the configuration file; relative paths in it resolve against this folder. */
  configDir: string;
};

/** Result of {@link safeParseConfig}: the configuration, or every problem found, most useful first. */
export type SafeParseConfigReturnType = { success: true; config: FacilitatorConfig } | { success: false; errors: readonly ConfigError[] };

/** Validates `raw` and returns every problem instead of throwing, so `check` can list them all. */
export function safeParseConfig(raw: unknown, options: ParseConfigOptions): SafeParseConfigReturnType {
  const result = facilitatorConfigSchema.safeParse(raw);
  if (!result.success) {
    const errors = result.error.issues.flatMap((issue) => toConfigErrors(issue, raw));
    // An unknown key usually explains a neighbouring "missing" one (a typo), so it is reported first.
    const isUnknown = (error: ConfigError) => error instanceof UnknownConfigKeyError;
    return { success: false, errors: [...errors.filter(isUnknown), ...errors.filter((error) => !isUnknown(error))] };
  }
  return { success: true, config: resolvePaths(result.data, options.configDir) };
}

/**
 * Resolves the file's relative paths against its folder: `settlement.journal`, `prover.wasm`, `prover.zkey`, and
 * a `prover.command` program written as a path (`./bin/prover`, `bin/prover`); a bare program name
 * (`zerc20-prover`) is looked up on `PATH`.
 */
function resolvePaths(config: FacilitatorConfig, configDir: string): FacilitatorConfig {
  const journal = config.settlement.journal;
  const settlement = journal === null || isAbsolute(journal) ? config.settlement : { ...config.settlement, journal: resolve(configDir, journal) };
  const prover = config.prover;
  if (prover.kind === "snarkjs")
    return { ...config, settlement, prover: { ...prover, wasm: resolve(configDir, prover.wasm), zkey: resolve(configDir, prover.zkey) } };
  if (prover.kind !== "command") return { ...config, settlement };
  const [program, ...args] = prover.command;
  const isRelativePath = !isAbsolute(program) && /[\\/]/.test(program);
  return { ...config, settlement, prover: { ...prover, command: [isRelativePath ? resolve(configDir, program) : program, ...args] } };
}

/**
 * Validates `raw` (a parsed TOML table) and returns the typed configuration, or throws the most useful
 * named error; {@link safeParseConfig} lists all of them.
 *
 * @example
 * const config = parseConfig(parse(tomlText, { integersAsBigInt: "asNeeded" }), { configDir: "/etc/svc" });
 */
export function parseConfig(raw: unknown, options: ParseConfigOptions): FacilitatorConfig {
  const result = safeParseConfig(raw, options);
  if (result.success) return result.config;
  const [first] = result.errors;
  throw first ?? new InvalidConfigValueError({ key: "(root)", reason: "rejected by the schema" });
}

const SECRET_LOOKING = /(^|[_-])(pk|private|privkey|secret|token|password|passwd|mnemonic|seed|key)([_-]|$)/i;

function toConfigErrors(issue: z.core.$ZodIssue, raw: unknown): ConfigError[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((name) => {
      const key = formatKey([...issue.path, name]);
      return new UnknownConfigKeyError({ key, looksSecret: SECRET_LOOKING.test(name) });
    });
  }
  if (issue.code === "custom") {
    const rule: unknown = issue.params?.["rule"];
    if (rule === CONFIG_RULE.feeModeBoth) return [new FeeModeError({ present: "both" })];
    if (rule === CONFIG_RULE.feeModeNeither) return [new FeeModeError({ present: "neither" })];
    if (rule === CONFIG_RULE.splitterMismatch) return [new SplitterMismatchError()];
  }
  const key = formatKey(issue.path);
  if (isMissing(raw, issue.path)) {
    const reason =
      key === "fee.bps" || key === "fee.min_per_payment" || key === "fee.charge_to"
        ? "required when the [fee] table is present"
        : key === "settlement.journal"
          ? "required unless [storage] is set"
          : issue.code === "custom"
            ? issue.message
            : undefined;
    return [new MissingConfigKeyError({ key, reason })];
  }
  return [new InvalidConfigValueError({ key, reason: issue.message })];
}

function formatKey(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path.reduce<string>((key, part) => {
    if (typeof part === "number") return `${key}[${part}]`;
    return key === "" ? String(part) : `${key}.${String(part)}`;
  }, "");
}

/** Whether the key at `path` is absent from its table (not merely invalid, nor inside a non-table value). */
function isMissing(raw: unknown, path: readonly PropertyKey[]): boolean {
  let parent = raw;
  for (const part of path.slice(0, -1)) {
    if (typeof parent !== "object" || parent === null) return false;
    parent = Reflect.get(parent, part);
  }
  const last = path.at(-1);
  if (last === undefined) return raw === undefined;
  if (typeof parent !== "object" || parent === null || Array.isArray(parent)) return false;
  return !Object.hasOwn(parent, last) || Reflect.get(parent, last) === undefined;
}
