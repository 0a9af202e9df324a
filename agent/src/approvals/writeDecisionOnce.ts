import { link, unlink } from "node:fs/promises";
import { dirname } from "node:path";

import { syncDirectory, writeSyncedTemporary } from "../ledger/atomicWriteFile.js";
import type { ApprovalDecision } from "./approvalFiles.js";

/**
 * Writes a decision file atomically and only if none exists: the JSON goes to a temporary file (fsynced)
 * that is then hard-linked to the final name, which fails when a decision is already there. So a reader
 * never sees half a decision, and when a human and the agent's own timeout race, exactly one wins.
 * Resolves `false` when another decision was first.
 */
export async function writeDecisionOnce(path: string, decision: ApprovalDecision): Promise<boolean> {
  const temporary = await writeSyncedTemporary(path, `${JSON.stringify(decision)}\n`);
  try {
    await link(temporary, path);
  } catch (error) {
    if (error instanceof Error && Reflect.get(error, "code") === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  await syncDirectory(dirname(path));
  return true;
}
