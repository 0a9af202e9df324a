/**
 * The `history` and `proofs` probes: everything about payment history and proof issuance that `start`
 * refuses, checked the same way and in the same order, but without opening the history file (it is not
 * created, repaired or locked; only a missing proof artifact folder is created, by the same loader `start` uses). `start` parses the variables (a partial proof group fails even with history off; a short identity
 * secret fails), then, with history on, loads the proof issuer (key file, manifest against trust anchor, key
 * listed and valid, artifact folder) and opens the history file (every line a history record).
 */
import { constants } from "node:fs";
import { access, readFile, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

import type { Environment } from "../../config/index.js";
import { BaseError } from "../../errors/base.js";
import { IncompleteProofConfigurationError } from "../../history/errors.js";
import { HistoryRecordSchema } from "../../history/record/historyRecord.js";
import { loadProofIssuer } from "../../history/proofs/loadProofIssuer.js";
import { type HistoryEnvironment, parseHistoryEnvironment, PROOF_VARIABLES } from "../../history/parseHistoryEnvironment.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { checkJsonLines } from "./checkJsonLines.js";

/** Probes the history and proof variables in `env` at unix second `nowSeconds`. */
export async function probeHistory(env: Environment, nowSeconds: number): Promise<CheckFinding[]> {
  const history = new FindingList("history");
  const proofs = new FindingList("proofs");
  let parsed: HistoryEnvironment;
  try {
    parsed = parseHistoryEnvironment(env);
  } catch (error) {
    if (!(error instanceof BaseError)) throw error;
    // The proof group is parsed first; a problem there must not hide one in the history group.
    (error instanceof IncompleteProofConfigurationError || isProofVariableError(error) ? proofs : history).fail(error.shortMessage);
    const withoutProofs = Object.fromEntries(Object.entries(env).filter(([name]) => !(PROOF_VARIABLES as readonly string[]).includes(name)));
    if (proofs.findings.length > 0) {
      try {
        const rest = parseHistoryEnvironment(withoutProofs);
        describeHistoryGroup(rest, history);
      } catch (again) {
        if (!(again instanceof BaseError)) throw again;
        history.fail(again.shortMessage);
      }
    } else {
      proofs.skip("not checked: the history variables above are invalid");
    }
    return [...history.findings, ...proofs.findings];
  }

  describeHistoryGroup(parsed, history);
  if (!parsed.enabled) {
    if (parsed.proofs === undefined) proofs.ok("off (none of the four proof variables is set)");
    else proofs.warn("the proof variables are set but ignored: proofs need payment history on");
    return [...history.findings, ...proofs.findings];
  }
  await probeHistoryFile(parsed.history.path, history);
  if (parsed.proofs === undefined) {
    proofs.ok("off (none of the four proof variables is set)");
  } else {
    try {
      const issuer = await loadProofIssuer(parsed.proofs, nowSeconds);
      proofs.ok(
        `issuer ${issuer.issuerId}, key ${issuer.signer.keyId}: the manifest verifies against the trust anchor; ` +
          `artifacts in ${resolve(parsed.proofs.artifactPath)}`,
      );
    } catch (error) {
      if (!(error instanceof BaseError)) throw error;
      proofs.fail(error.shortMessage);
    }
  }
  return [...history.findings, ...proofs.findings];
}

function describeHistoryGroup(parsed: HistoryEnvironment, list: FindingList): void {
  if (parsed.enabled) return;
  // Start only warns here (`history_disabled`): history is optional, but a half-set group is a likely mistake.
  if (parsed.missing.length === 6) list.ok("off (none of the six history variables is set)");
  else list.warn(`off: ${parsed.missing.join(", ")} ${parsed.missing.length === 1 ? "is" : "are"} not set (all six switch history on)`);
}

/** The history file as `start` would open it: readable, writable, and every complete line a history record. */
async function probeHistoryFile(path: string, list: FindingList): Promise<void> {
  const absolute = resolve(path);
  let text: string;
  try {
    await access(absolute, constants.R_OK | constants.W_OK);
    text = await readFile(absolute, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      list.fail(`PAYMENT_HISTORY_PATH ${absolute} cannot be read and written`);
      return;
    }
    const folder = await nearestExistingFolder(dirname(absolute));
    try {
      await access(folder, constants.W_OK);
      list.ok(`PAYMENT_HISTORY_PATH ${absolute} will be created (${folder} is writable)`);
    } catch {
      list.fail(`PAYMENT_HISTORY_PATH ${absolute} cannot be created: ${folder} is not writable`);
    }
    return;
  }
  const loaded = checkJsonLines(text, HistoryRecordSchema);
  if (!loaded.ok) {
    list.fail(
      loaded.problem === "not_json"
        ? `PAYMENT_HISTORY_PATH ${absolute}: line ${loaded.lineNumber} is not JSON (start refuses a damaged history file)`
        : `PAYMENT_HISTORY_PATH ${absolute}: record ${loaded.lineNumber} is not a history record`,
    );
    return;
  }
  const note = loaded.tornLineNumber === undefined ? "" : "; its torn last line will be cut off at start";
  list.ok(`PAYMENT_HISTORY_PATH ${absolute}: ${loaded.records} records${note}`);
}

async function nearestExistingFolder(folder: string): Promise<string> {
  let current = folder;
  for (;;) {
    try {
      if ((await stat(current)).isDirectory()) return current;
    } catch {
      // Keep walking up: start creates the missing folders.
    }
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}

function isProofVariableError(error: BaseError): boolean {
  const variable = (error as { variable?: unknown }).variable;
  return variable === "HISTORY_ISSUER_KEY_ID" || variable === "HISTORY_ISSUER_ID";
}
