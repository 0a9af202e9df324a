/** The `config` probe: the file reads, is TOML, and passes the schema; every schema problem gets its own line. */
import { dirname, resolve } from "node:path";

import { readConfigToml, safeParseConfig, type FacilitatorConfig } from "../../config/index.js";
import { BaseError } from "../../errors/base.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** What {@link probeConfig} found: the findings, and the configuration when it parsed. */
export type ProbeConfigReturnType = { findings: CheckFinding[]; config: FacilitatorConfig | undefined };

/** Reads and validates the configuration file at `configPath`, listing every problem rather than the first. */
export async function probeConfig(configPath: string): Promise<ProbeConfigReturnType> {
  const list = new FindingList("config");
  let raw: unknown;
  try {
    raw = await readConfigToml(configPath);
  } catch (error) {
    // Read and syntax errors are named errors that quote only the path and position, never file content.
    list.fail(error instanceof BaseError ? error.shortMessage : `cannot read ${JSON.stringify(configPath)}`);
    return { findings: list.findings, config: undefined };
  }
  const result = safeParseConfig(raw, { configDir: dirname(resolve(configPath)) });
  if (!result.success) {
    for (const error of result.errors) list.fail(error.shortMessage);
    return { findings: list.findings, config: undefined };
  }
  list.ok(`${configPath} parses (${describeConfig(result.config)})`);
  return { findings: list.findings, config: result.config };
}

function describeConfig(config: FacilitatorConfig): string {
  const profile = config.profile === undefined ? "profile unset (non-local)" : `profile ${config.profile}`;
  const fee = config.fee;
  const feeText =
    fee === undefined
      ? "no fee"
      : fee.mode === "split"
        ? `split fee ${fee.bps} bps charged to ${fee.charge_to}`
        : `custodial fee ${fee.bps} bps charged to ${fee.charge_to}`;
  const listen = `listen ${config.listen.host}:${config.listen.port}`;
  return `${profile}, chain ${config.network.chain_id}, ${listen}, ${feeText}`;
}
