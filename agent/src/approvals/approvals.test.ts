import { spawnSync } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { buildApprovalRequest } from "../testing/buildApprovalRequest.js";
import { makeTempDir } from "../testing/tempDir.js";
import { approvalPaths, ApprovalRequestSchema } from "./approvalFiles.js";
import { decideApproval } from "./decideApproval.js";
import { ApprovalAgentGoneError, ApprovalAlreadyDecidedError, ApprovalExpiredError, ApprovalNotFoundError } from "./errors.js";
import { listPendingApprovals } from "./listPendingApprovals.js";
import { requestApproval } from "./requestApproval.js";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.remove());

/** Waits at most `timeoutMs` until `id` is listed as pending: the marker that the request file is on disk. */
async function pendingShows(id: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await listPendingApprovals(dir.path)).some((request) => request.id === id)) return;
    if (Date.now() > deadline) throw new Error(`approval ${id} was not listed as pending within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("approval files", () => {
  it.each(["approved", "denied"] as const)("delivers a human's %s decision to the waiting agent and cleans up", async (decision) => {
    const request = buildApprovalRequest();
    const waiting = requestApproval({ stateDir: dir.path, request, pollMs: 5 });
    await pendingShows(request.id);
    await decideApproval({ stateDir: dir.path, id: request.id, decision, by: "test" });
    await expect(waiting).resolves.toBe(decision);
    expect(await readdir(approvalPaths(dir.path, request.id).dir)).toEqual([]);
    expect(await listPendingApprovals(dir.path)).toEqual([]);
  });

  it("declines on its own at the deadline and then refuses a late decision", async () => {
    const request = buildApprovalRequest({}, 50);
    await expect(requestApproval({ stateDir: dir.path, request, pollMs: 5 })).resolves.toBe("timed-out");
    await expect(decideApproval({ stateDir: dir.path, id: request.id, decision: "approved", by: "test" })).rejects.toThrow(ApprovalNotFoundError);
  });

  it("keeps the first decision: a second one is refused, never overwritten", async () => {
    const request = buildApprovalRequest();
    const paths = approvalPaths(dir.path, request.id);
    await mkdir(paths.dir, { recursive: true });
    await writeFile(paths.request, JSON.stringify(z.encode(ApprovalRequestSchema, request)));
    await decideApproval({ stateDir: dir.path, id: request.id, decision: "denied", by: "first" });
    const second = await decideApproval({ stateDir: dir.path, id: request.id, decision: "approved", by: "second" }).catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(ApprovalAlreadyDecidedError);
    expect(second).toMatchObject({ decision: "denied" });
    await expect(requestApproval({ stateDir: dir.path, request, pollMs: 5 })).resolves.toBe("denied");
  });

  it("refuses ids that are not approval ids, so a typed id can never name another file", async () => {
    for (const id of ["../ledger", "ABCDEF012345", "0123456789abc", ""]) {
      await expect(decideApproval({ stateDir: dir.path, id, decision: "approved", by: "test" })).rejects.toThrow(ApprovalNotFoundError);
    }
  });

  it("does not list requests of a dead agent or past their deadline", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const orphan = buildApprovalRequest({ pid: Number(dead.stdout) });
    const overdue = buildApprovalRequest({ decideBy: Date.now() - 1 });
    const live = buildApprovalRequest();
    for (const request of [orphan, overdue, live]) {
      const paths = approvalPaths(dir.path, request.id);
      await mkdir(paths.dir, { recursive: true });
      await writeFile(paths.request, JSON.stringify(z.encode(ApprovalRequestSchema, request)));
    }
    expect((await listPendingApprovals(dir.path)).map((request) => request.id)).toEqual([live.id]);
    await expect(decideApproval({ stateDir: dir.path, id: orphan.id, decision: "approved", by: "test" })).rejects.toThrow(ApprovalAgentGoneError);
    const late = decideApproval({ stateDir: dir.path, id: overdue.id, decision: "approved", by: "test" });
    await expect(late).rejects.toThrow(ApprovalExpiredError);
    await expect(late).rejects.toThrow(/expired at .*; it can no longer be approved or denied, and nothing will be paid/);
    expect(await readdir(approvalPaths(dir.path, overdue.id).dir)).not.toContain(`${overdue.id}.decision.json`);
  });
});
