/**
 * The Prometheus alert rules shipped in `facilitator/alerts`: valid for Prometheus (`promtool check rules`),
 * firing as their unit tests say (`promtool test rules`), and naming only series this daemon exports, so a
 * renamed metric cannot silently disarm an alert. `make test` installs promtool (Debian's prometheus package).
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BACKLOG_STATES, type SettlementBacklog } from "../operator/settlementBacklog.js";
import { createFacilitatorMetrics } from "./createFacilitatorMetrics.js";

const alerts = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "alerts");
const run = promisify(execFile);

async function promtool(...args: string[]): Promise<string> {
  const answer = await run("promtool", args, { cwd: alerts }).catch((error: NodeJS.ErrnoException & { stdout?: string; stderr?: string }) => {
    if (error.code === "ENOENT") throw new Error("promtool is not installed: `make test` installs it (Debian package prometheus)");
    throw new Error(`promtool ${args.join(" ")} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  });
  return answer.stdout + answer.stderr;
}

describe("alert rules", () => {
  it("are valid Prometheus rules", async () => {
    expect(await promtool("check", "rules", "facilitator-alerts.yml")).toMatch(/SUCCESS: 11 rules found/);
  });

  it("fire as their unit tests expect, and stay silent for healthy instances", async () => {
    expect(await promtool("test", "rules", "facilitator-alerts.test.yml")).toMatch(/SUCCESS/);
  });

  it("name only series the daemon exports", async () => {
    const rules = await readFile(join(alerts, "facilitator-alerts.yml"), "utf8");
    const named = new Set(rules.match(/\bfacilitator_[a-z_]+/g));
    const metrics = createFacilitatorMetrics({
      poolStats: () => undefined,
      poseidon: { implementation: "native", path: "portable" },
      backlog: () => Object.fromEntries(BACKLOG_STATES.map((state) => [state, { count: 0, oldestAgeSeconds: null }])) as SettlementBacklog,
      openChallenges: () => 0,
      relayerQueueDepth: () => 0,
      rpcEndpoints: () => [],
      gasBalances: () => Promise.resolve({ relayer: 0n, treasury: 0n }),
    });
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((metric) => metric.name));
    expect(named.size).toBeGreaterThanOrEqual(10);
    for (const name of named) expect(exported, name).toContain(name);
  });
});
