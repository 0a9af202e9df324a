import { readdir } from "node:fs/promises";
import { join } from "node:path";

import { ApprovalRequestSchema, approvalPaths, APPROVALS_DIR, type ApprovalRequest, readJsonFile } from "./approvalFiles.js";
import { isProcessAlive } from "../ledger/isProcessAlive.js";

/**
 * The approvals waiting for a human, oldest first: request files without a decision, before their deadline,
 * whose agent process is still running. Left-over files of a crashed agent are ignored, not shown.
 */
export async function listPendingApprovals(stateDir: string, nowMs: number = Date.now()): Promise<ApprovalRequest[]> {
  let names: string[];
  try {
    names = await readdir(join(stateDir, APPROVALS_DIR));
  } catch {
    return [];
  }
  const ids = names.filter((name) => name.endsWith(".request.json")).map((name) => name.slice(0, -".request.json".length));
  const decided = new Set(names.filter((name) => name.endsWith(".decision.json")).map((name) => name.slice(0, -".decision.json".length)));
  const requests = await Promise.all(
    ids.filter((id) => !decided.has(id)).map((id) => readJsonFile(approvalPaths(stateDir, id).request, ApprovalRequestSchema)),
  );
  return requests
    .filter((request): request is ApprovalRequest => request !== undefined && request.decideBy > nowMs && isProcessAlive(request.pid))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
