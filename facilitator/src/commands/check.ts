/**
 * `facilitator check --config <path>`: probes everything `start` depends on before an operator starts it
 * (config, keys and startup rules, RPC and chain id, contracts, splitter, journal, indexer, the prover's
 * circuit files, the Poseidon implementation and search path burn addresses derive with) and prints one
 * line per finding. A cross marks exactly one problem each; on success the last line says the
 * configuration checks out. A probe that depends on a failed one is skipped with a note instead of adding
 * follow-on errors.
 */
import type { Environment } from "../config/index.js";
import { formatFinding, type CheckFinding, type CheckProbe } from "./probes/checkFinding.js";
import { noteDecider } from "./probes/noteDecider.js";
import { probeConfig } from "./probes/probeConfig.js";
import { probeContracts } from "./probes/probeContracts.js";
import { probeFinalizeSchedule } from "./probes/probeFinalizeSchedule.js";
import { probeHistory } from "./probes/probeHistory.js";
import { probeIndexer } from "./probes/probeIndexer.js";
import { probeJournal } from "./probes/probeJournal.js";
import { probePoseidon } from "./probes/probePoseidon.js";
import { probeProver } from "./probes/probeProver.js";
import { probeKeys } from "./probes/probeKeys.js";
import { probeProtocol } from "./probes/probeProtocol.js";
import { probeProviders } from "./probes/probeProviders.js";
import { probeRelayer } from "./probes/probeRelayer.js";
import { probeRpc } from "./probes/probeRpc.js";
import { probeSplitter } from "./probes/probeSplitter.js";
import { probeStorage } from "./probes/probeStorage.js";
import { probeWitnesses } from "./probes/probeWitnesses.js";
import { DEFAULT_CHECK_TIMEOUT_MS } from "./checkCommand.js";
import { redactOutput } from "./redactOutput.js";

export { formatFinding, type CheckFinding, type CheckProbe, type CheckStatus } from "./probes/checkFinding.js";

export { DEFAULT_CHECK_TIMEOUT_MS } from "./checkCommand.js";

/** The last line of a successful check; scripts and tests look for it. */
export const CHECKS_OUT_LINE = "✓ configuration checks out";

/** Parameters of {@link runCheck}. */
export type RunCheckParameters = {
  /** Path of the TOML configuration file. */
  configPath: string;
  /** Where the secrets come from (`process.env` in the CLI). */
  env: Environment;
  /** Receives the output as it is produced, newline-terminated lines; omit to collect findings silently. */
  write?: ((text: string) => void) | undefined;
  /** Timeout of each network probe in milliseconds. */
  timeoutMs?: number | undefined;
  /** `text` (default): marked lines for people; `json`: one JSON object per finding, then a summary object. */
  format?: "text" | "json" | undefined;
};

/**
 * Runs every probe and returns the findings (the summary line is written, not returned). The caller
 * decides the exit code: any finding with status `fail` is a problem.
 *
 * @example
 * const findings = await runCheck({ configPath: ".stack/facilitator.toml", env: process.env, write: (t) => process.stdout.write(t) });
 * process.exitCode = countProblems(findings) > 0 ? 1 : 0;
 */
export async function runCheck(parameters: RunCheckParameters): Promise<CheckFinding[]> {
  const { configPath, env, write } = parameters;
  const timeout = parameters.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const json = parameters.format === "json";
  const findings: CheckFinding[] = [];
  const emit = (text: string) => write?.(`${redactOutput(text, env)}\n`);
  const report = (batch: readonly CheckFinding[]) => {
    for (const finding of batch) {
      const safe = { ...finding, message: redactOutput(finding.message, env) };
      findings.push(safe);
      emit(json ? JSON.stringify(safe) : formatFinding(safe));
    }
  };
  const skip = (probe: CheckProbe, reason: string) => report([{ probe, status: "skip", message: `skipped: ${reason}` }]);

  const { findings: configFindings, config } = await probeConfig(configPath);
  report(configFindings);
  const keys = probeKeys(env, config);
  report(keys.findings);
  if (config !== undefined) report(probeProviders(config));
  if (config !== undefined) report(probeFinalizeSchedule(config));
  report(await probeHistory(env, Math.floor(Date.now() / 1000)));
  if (config === undefined) {
    for (const probe of ["rpc", "contracts", "protocol", "journal", "indexer"] as const) skip(probe, "the configuration does not parse");
  } else {
    const rpc = await probeRpc(config, timeout);
    report(rpc.findings);
    const { chain } = rpc;
    const fee = config.fee;
    try {
      if (chain === undefined) {
        const reason = rpc.reason ?? "the RPC probe failed";
        if (keys.secrets !== undefined) skip("relayer", reason);
        skip("contracts", reason);
        skip("protocol", reason);
        if (fee?.mode === "split") skip("splitter", reason);
        skip("witnesses", reason);
      } else {
        if (keys.secrets !== undefined) report(await probeRelayer(keys.secrets, chain, timeout));
        const contracts = await probeContracts(config, chain, timeout);
        report(contracts);
        if (contracts.some((finding) => finding.status === "fail")) skip("protocol", "a contract has no code");
        else report(await probeProtocol(config, chain, timeout));
        if (fee?.mode === "split") report(await probeSplitter(config, fee, chain, timeout));
        if (contracts.some((finding) => finding.status === "fail")) skip("witnesses", "a contract has no code");
        else report(await probeWitnesses(config, chain, timeout));
      }
    } finally {
      await chain?.close();
    }
    // With [storage] the journal is the database's, probed below; the journal file is not used.
    if (config.storage === undefined) report(await probeJournal(config.settlement.journal));
    else report(await probeStorage(config.storage, env));
    report(await probeIndexer(config, timeout));
    report(noteDecider(config));
    report(await probeProver(config));
  }
  report(probePoseidon(env));

  const problems = countProblems(findings);
  const warnings = findings.filter((finding) => finding.status === "warn").length;
  if (json) emit(JSON.stringify({ result: problems === 0 ? "checks_out" : "failed", problems, warnings }));
  else if (problems === 0) {
    emit(warnings === 0 ? CHECKS_OUT_LINE : `${CHECKS_OUT_LINE} (${plural(warnings, "warning")})`);
  } else {
    // No cross on this line: the spec asks for exactly one crossed line per problem.
    emit(`check failed: ${plural(problems, "problem")}`);
  }
  return findings;
}

/** The number of problems (findings with status `fail`) among `findings`. */
export function countProblems(findings: readonly CheckFinding[]): number {
  return findings.filter((finding) => finding.status === "fail").length;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
