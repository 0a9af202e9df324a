/**
 * The one call `start` and `check` make: read the TOML file, validate it, read the secrets from the given
 * environment, and apply the startup rules. The RPC chain-id rule needs a live chain and is applied
 * separately with `assertRpcChainId`.
 */
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";

import { ConfigFileReadError, ConfigSyntaxError } from "./errors.js";
import { checkStartupRules, type StartupWarning } from "./checkStartupRules.js";
import type { FacilitatorConfig } from "./facilitatorConfigSchema.js";
import { parseConfig } from "./parseConfig.js";
import { parseSecrets, type Environment, type FacilitatorSecrets } from "./parseSecrets.js";

/** What {@link loadConfig} returns. */
export type LoadConfigReturnType = {
  config: FacilitatorConfig;
  secrets: FacilitatorSecrets;
  warnings: StartupWarning[];
};

/**
 * Loads and validates the configuration at `path` with secrets from `env`; throws a named error for the
 * first problem (unreadable file, TOML syntax, bad key or value, bad secret, violated startup rule).
 *
 * @example
 * const { config, secrets, warnings } = await loadConfig(".stack/facilitator.toml", process.env);
 */
export async function loadConfig(path: string, env: Environment): Promise<LoadConfigReturnType> {
  const raw = await readConfigToml(path);
  const config = parseConfig(raw, { configDir: dirname(resolve(path)) });
  const secrets = parseSecrets(env);
  const warnings = checkStartupRules({ config, secrets });
  return { config, secrets, warnings };
}

/** Reads and parses the TOML file at `path` into a plain table, mapping failures to named errors. */
export async function readConfigToml(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new ConfigFileReadError({ path, cause });
  }
  try {
    // Large integers stay exact as bigint: 18-decimal base-unit amounts pass 2^53 quickly.
    return parse(text, { integersAsBigInt: "asNeeded", unsafeKeyBehaviour: "throw" });
  } catch (error) {
    if (error instanceof TomlError) {
      throw new ConfigSyntaxError({ path, line: error.line, column: error.column, reason: tomlReason(error) });
    }
    throw error;
  }
}

/** The parser's one-line reason, without the quoted source lines that follow it. */
function tomlReason(error: TomlError): string {
  const firstLine = error.message.split("\n", 1)[0] ?? "";
  const reason = firstLine.replace(/^Invalid TOML document:\s*/, "").replace(/\.$/, "");
  return reason.length > 120 ? `${reason.slice(0, 120)}…` : reason || "syntax error";
}
