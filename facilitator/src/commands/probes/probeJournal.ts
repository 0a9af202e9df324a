/**
 * The `journal` probe: `start` must be able to create and append to `settlement.journal`, and the records
 * already in it must load, or the daemon refuses to start (or, with `none`, forgets pending work). The
 * writability test creates and deletes a probe file beside the journal, never touching the journal itself.
 */
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { access, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { JournalRecordSchema } from "../../journal/journalRecord.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { checkJsonLines } from "./checkJsonLines.js";

/** Checks that the journal's folder is writable and that an existing journal loads. */
export async function probeJournal(journal: string | null): Promise<CheckFinding[]> {
  const list = new FindingList("journal");
  if (journal === null) {
    list.warn('settlement.journal is "none": accepted payments not yet finalized are lost on restart');
    return list.findings;
  }
  const folder = dirname(journal);
  // start creates missing folders, so the nearest folder that exists is the one that has to be writable.
  let existing = folder;
  let existingStats = await statOrUndefined(existing);
  while (existingStats === undefined && dirname(existing) !== existing) {
    existing = dirname(existing);
    existingStats = await statOrUndefined(existing);
  }
  if (existingStats === undefined || !existingStats.isDirectory()) {
    list.fail(`settlement.journal ${journal} cannot be created: ${existing} is not a folder`);
    return list.findings;
  }
  const probe = join(existing, `.${basename(journal)}.check-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    await writeFile(probe, "", { flag: "wx" });
    await unlink(probe);
  } catch (error) {
    list.fail(`settlement.journal folder ${existing} is not writable (${errorCode(error)})`);
    return list.findings;
  }
  const where = existing === folder ? `folder ${folder} is writable` : `folder ${folder} will be created in ${existing}`;

  const fileStats = await statOrUndefined(journal);
  if (fileStats === undefined) {
    list.ok(`${journal}: ${where}; no journal yet`);
    return list.findings;
  }
  if (!fileStats.isFile()) {
    list.fail(`settlement.journal ${journal} exists but is not a regular file`);
    return list.findings;
  }
  try {
    await access(journal, constants.R_OK | constants.W_OK);
  } catch (error) {
    list.fail(`settlement.journal ${journal} is not readable and writable (${errorCode(error)})`);
    return list.findings;
  }
  loadRecords(journal, await readFile(journal, "utf8"), where, list);
  return list.findings;
}

/** Mirrors what `start` does with the file: a torn last line is cut off (warned), any other bad line is fatal. */
function loadRecords(journal: string, text: string, where: string, list: FindingList): void {
  const loaded = checkJsonLines(text, JournalRecordSchema);
  if (!loaded.ok) {
    list.fail(
      loaded.problem === "not_json"
        ? `settlement.journal ${journal} is damaged at line ${loaded.lineNumber}: start refuses it`
        : `settlement.journal ${journal} line ${loaded.lineNumber} is not a journal record this version reads`,
    );
    return;
  }
  if (loaded.tornLineNumber !== undefined) {
    list.warn(`settlement.journal ${journal} ends in a torn line ${loaded.tornLineNumber}; start will cut it off`);
  }
  list.ok(`${journal}: ${where}; ${loaded.records} record${loaded.records === 1 ? "" : "s"} load`);
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") return error.code;
  return "unknown error";
}
