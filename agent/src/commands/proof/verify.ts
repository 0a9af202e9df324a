import { resolve } from "node:path";

import { verifyProofFiles } from "../../history/verifyProofFiles.js";
import { UsageError } from "../clipanion.js";
import { proofResultExitCode } from "../proofResultExitCode.js";
import { writeJsonLine, writeLine } from "../writeLine.js";
import type { ProofVerifyCommand } from "./verifyCommand.js";

/** RFC 3339 in UTC (`Z`) or with an offset, as `--at` accepts it. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Runs `ProofVerifyCommand` as parsed into `command`; returns the exit code. */
export async function runProofVerify(command: ProofVerifyCommand): Promise<number> {
  const { stdout } = command.context;
  const at = command.at === undefined ? undefined : parseInstant(command.at);
  const { result, reason } = await verifyProofFiles({
    proof: resolve(command.proof),
    manifest: resolve(command.manifest),
    trustAnchor: resolve(command.trustAnchor),
    statusChain: command.statusChain === undefined ? undefined : resolve(command.statusChain),
    at,
  });
  if (command.json) writeJsonLine(stdout, { result, reason });
  else writeLine(stdout, `${result}: ${reason}`);
  return proofResultExitCode(result);
}

function parseInstant(value: string): Date {
  const at = new Date(value);
  if (!RFC_3339.test(value) || Number.isNaN(at.getTime())) throw new UsageError(`--at must be an RFC 3339 time such as 2030-06-01T00:00:00Z, not ${value}`);
  return at;
}
