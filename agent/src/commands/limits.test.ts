import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { Ledger } from "../ledger/ledger.js";
import { buildReserveInput } from "../testing/buildReserveInput.js";
import { runCliInProcess } from "../testing/runCliInProcess.js";
import { makeTempDir } from "../testing/tempDir.js";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(() => dir.remove());

// The RPC is closed: token decimals stay unknown, so the limits here are in base units.
const env = (extra: Record<string, string> = {}) => ({ SVC_STATE_DIR: dir.path, SVC_RPC_URL: "http://127.0.0.1:9/", SVC_TIMEOUT_MS: "2000", ...extra });

describe("svc-agent limits", () => {
  it("says when no limit is set", async () => {
    const run = await runCliInProcess(["limits"], env());
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining("no spend limit set (SVC_MAX_TOTAL, SVC_MAX_PER_HOUR") });
  });

  it("prints each limit with what it has used, what is left and when a window frees up", async () => {
    const reservedAt = Date.now() - 3_600_000;
    await new Ledger(dir.path, { now: () => reservedAt }).reserve(buildReserveInput({ amount: 300n }), {});
    const limits = { SVC_MAX_PER_DAY: "1000base", SVC_MAX_PER_HOST: "500base", SVC_MAX_PER_MCP_SESSION: "100base" };
    const json = await runCliInProcess(["limits", "--json"], env(limits));
    expect(json.code).toBe(0);
    const lines = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const freesAt = new Date(reservedAt + 24 * 3_600_000).toISOString();
    expect(lines).toEqual([
      expect.objectContaining({ type: "limit", limit: "maxPerDay", usedBaseUnits: "300", leftBaseUnits: "700", freesAt }),
      expect.objectContaining({ type: "limit", limit: "maxPerHost", scope: "127.0.0.1", usedBaseUnits: "300", leftBaseUnits: "200", freesAt: null }),
      expect.objectContaining({ type: "limit", limit: "maxPerMcpSession", scope: null, usedBaseUnits: "0", leftBaseUnits: "100" }),
    ]);
    const text = await runCliInProcess(["limits"], env(limits));
    expect(text.stdout).toContain(`SVC_MAX_PER_DAY: 1000 base units per rolling 24 hours; used 300 base units, left 700 base units, frees at ${freesAt}`);
    expect(text.stdout).toContain("SVC_MAX_PER_HOST 127.0.0.1: 500 base units per host in total; used 300 base units, left 200 base units");
  });
});
