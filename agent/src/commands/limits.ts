import { Ledger } from "../ledger/ledger.js";
import { SPEND_LIMIT_NAMES, SPEND_LIMITS } from "../ledger/spendLimits.js";
import { amountFormat, readTokens } from "../payment/amountFormat.js";
import { limitStatusJson, limitsStatus } from "../policy/limitsStatus.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { describeSpendAmount } from "../policy/spendAmount.js";
import { EXIT_OK } from "./exitCodes.js";
import type { LimitsCommand } from "./limitsCommand.js";
import { writeJsonLine, writeLine } from "./writeLine.js";

/** Runs `LimitsCommand` as parsed into `command`; returns the exit code. */
export async function runLimits(command: LimitsCommand): Promise<number> {
  const { stdout, env } = command.context;
  const policy = loadPolicy(env);
  const entries = await new Ledger(policy.stateDir).entries();
  const tokenFor = await readTokens(policy, [...entries.map((entry) => entry.asset), ...(policy.allowedToken === undefined ? [] : [policy.allowedToken])]);
  const rows = limitsStatus({ entries, policy, decimalsFor: (asset) => tokenFor(asset)?.decimals, now: Date.now() });
  if (command.json) {
    for (const row of rows) writeJsonLine(stdout, { type: "limit", ...limitStatusJson(row) });
    return EXIT_OK;
  }
  if (SPEND_LIMIT_NAMES.every((name) => policy[name] === undefined)) {
    writeLine(
      stdout,
      `no spend limit set (${Object.values(SPEND_LIMITS)
        .map((definition) => definition.variable)
        .join(", ")})`,
    );
    return EXIT_OK;
  }
  if (rows.length === 0) writeLine(stdout, "no spend yet and no SVC_ALLOWED_TOKEN: every limit has all of its room");
  let heading = "";
  for (const row of rows) {
    const token = tokenFor(row.asset);
    const format = amountFormat(token, { baseUnits: command.baseUnits });
    if (heading !== `${row.network} ${row.asset}`) {
      heading = `${row.network} ${row.asset}`;
      writeLine(stdout, heading);
    }
    const scope =
      row.scope === null ? (row.limit === "maxPerHost" ? " (no host paid yet)" : row.limit === "maxPerMcpSession" ? " (a new session)" : "") : ` ${row.scope}`;
    const limit = row.cap === undefined ? describeSpendAmount(row.configured, token) : format(row.cap);
    const left = row.left === undefined ? "left unknown (token decimals not read)" : `left ${format(row.left)}`;
    const frees = row.freesAt === undefined ? "" : `, frees at ${new Date(row.freesAt).toISOString()}`;
    writeLine(stdout, `  ${row.variable}${scope}: ${limit} ${row.extent}; used ${format(row.used)}, ${left}${frees}`);
  }
  return EXIT_OK;
}
