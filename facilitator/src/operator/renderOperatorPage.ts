/**
 * The operator page as one HTML document: server-rendered, no script, inline CSS and an inline SVG chart, so
 * it needs no build step and passes a Content-Security-Policy that allows nothing but inline styles. Every
 * value goes through `html`, which escapes it.
 */
import { formatEther } from "viem";

import { BACKLOG_STATES } from "./settlementBacklog.js";
import { html, type SafeHtml } from "./escapeHtml.js";
import { formatAge } from "./formatDaemonStatus.js";
import type { OperatorPageView, ThroughputMinute } from "./operatorPageView.js";

/** Seconds between the page's own reloads (`<meta http-equiv="refresh">`). */
export const OPERATOR_PAGE_REFRESH_SECONDS = 10;

const ACCEPTED_COLOUR = "#4c7fd8";
const FINALIZED_COLOUR = "#2e9d5b";

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d1d1f; background: #fafafa; }
h1 { font-size: 1.3rem; margin: 0 0 .2rem; } h2 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
table { border-collapse: collapse; background: #fff; } th, td { padding: .2rem .6rem; border-bottom: 1px solid #e3e3e3; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } code { font-size: .92em; }
.ok { color: #137333; } .bad { color: #b3261e; font-weight: 600; } .muted { color: #6b6b6b; }
svg { background: #fff; border: 1px solid #e3e3e3; } .legend span { margin-right: 1rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; vertical-align: middle; margin-right: .3rem; }
.swatch.accepted { background: ${ACCEPTED_COLOUR}; } .swatch.finalized { background: ${FINALIZED_COLOUR}; }
`;

/** The whole page for `view`. */
export function renderOperatorPage(view: OperatorPageView): string {
  const { status } = view;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="${OPERATOR_PAGE_REFRESH_SECONDS}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc-facilitator operator page</title>
<style>${STYLE}</style>
</head>
<body>
<h1>svc-facilitator</h1>
<p class="muted">profile ${status.profile ?? "unset"}, chain ${status.chainId}; taken at ${new Date(view.now * 1000).toISOString()}, reloads every ${OPERATOR_PAGE_REFRESH_SECONDS} s</p>
${readinessSection(view)}
${backlogSection(view)}
${recentSection(view)}
${stockSection(view)}
${anonymitySection(view)}
${balancesSection(view)}
${throughputSection(view.throughput)}
</body>
</html>
`;
  return page.markup;
}

function readinessSection({ readiness, status }: OperatorPageView): SafeHtml {
  const verdict = readiness.ready ? html`<span class="ok">ready</span>` : html`<span class="bad">NOT READY</span>`;
  const components = Object.entries(readiness.components).map(
    ([name, component]) =>
      html`<tr><td>${name}</td><td class="${component.ready ? "ok" : "bad"}">${component.ready ? "ready" : (component.reason ?? "failed")}</td></tr>`,
  );
  const endpoints = status.rpcEndpoints.map(
    (endpoint) =>
      html`<tr><td>${endpoint.endpoint}</td><td><code>${endpoint.origin}</code></td><td class="${endpoint.up ? "ok" : "bad"}">${endpoint.up ? "up" : `down (${endpoint.lastError ?? "unknown error"})`}</td><td class="num">${endpoint.errors}</td><td class="num">${endpoint.skips}</td></tr>`,
  );
  return html`<section id="readiness">
<h2>Readiness: ${verdict}</h2>
<table><thead><tr><th>component</th><th>state</th></tr></thead><tbody>${components}</tbody></table>
<h2>RPC endpoints</h2>
<table><thead><tr><th>endpoint</th><th>origin</th><th>state</th><th>errors</th><th>skipped</th></tr></thead><tbody>${endpoints}</tbody></table>
</section>`;
}

function backlogSection({ status }: OperatorPageView): SafeHtml {
  const rows = BACKLOG_STATES.map((state) => {
    const bucket = status.backlog[state];
    return html`<tr><td>${state}</td><td class="num">${bucket.count}</td><td>${bucket.oldestAgeSeconds === null ? "" : formatAge(bucket.oldestAgeSeconds)}</td></tr>`;
  });
  return html`<section id="backlog">
<h2>Backlog</h2>
<table><thead><tr><th>state</th><th>count</th><th>oldest</th></tr></thead><tbody>${rows}</tbody></table>
<p>open challenges: ${status.openChallenges}</p>
</section>`;
}

function recentSection({ recent }: OperatorPageView): SafeHtml {
  const rows = recent.map(
    (payment) =>
      html`<tr><td><code>${payment.nonce}</code></td><td>${payment.path}</td><td class="num">${payment.amount}</td><td class="${payment.state === "failed" || payment.state === "late_burn" ? "bad" : ""}">${payment.state}</td><td>${payment.ageSeconds === null ? "" : formatAge(payment.ageSeconds)}</td><td>${payment.reason ?? ""}</td></tr>`,
  );
  const body =
    recent.length === 0
      ? html`<p class="muted">no payments yet</p>`
      : html`<table><thead><tr><th>challenge nonce</th><th>path</th><th>amount (base units)</th><th>state</th><th>age</th><th>reason</th></tr></thead><tbody>${rows}</tbody></table>`;
  return html`<section id="recent">
<h2>Recent payments</h2>
${body}
</section>`;
}

function stockSection({ status }: OperatorPageView): SafeHtml {
  const { stock } = status;
  if (stock === null) return html`<section id="stock"><h2>Burn-address stock</h2><p class="muted">none: this profile issues no offers</p></section>`;
  const derivations = stock.derivationsPerSecond === null ? "not timed yet" : `${formatRate(stock.derivationsPerSecond)}/s`;
  const lasts = stock.lastsSeconds === null ? "indefinitely at the current rate" : formatAge(Math.floor(stock.lastsSeconds));
  return html`<section id="stock">
<h2>Burn-address stock</h2>
<table><tbody>
<tr><td>ready</td><td class="num">${stock.stocked}</td></tr>
<tr><td>deriving</td><td class="num">${stock.deriving}</td></tr>
<tr><td>target (floor..ceiling)</td><td class="num">${stock.target} (${stock.floor}..${stock.ceiling})</td></tr>
<tr><td>offers</td><td class="num">${formatRate(stock.offersPerSecond)}/s</td></tr>
<tr><td>derivations</td><td class="num">${derivations}</td></tr>
<tr><td>lasts</td><td class="${stock.lastsSeconds !== null && stock.lastsSeconds < 60 ? "bad" : ""}">${lasts}</td></tr>
${stock.stopped ? html`<tr><td>pool</td><td class="bad">STOPPED</td></tr>` : ""}
</tbody></table>
<p class="muted">poseidon: ${status.poseidon.implementation}${status.poseidon.path === null ? "" : `, path ${status.poseidon.path}`}</p>
</section>`;
}

function anonymitySection({ anonymity }: OperatorPageView): SafeHtml {
  const crowds = anonymity.crowds.map(
    (crowd) =>
      html`<tr><td class="num">${crowd.amount}</td><td class="num">${crowd.waiting}</td><td>${crowd.reachesMinimum ? "yes" : `no: waits until due and ${anonymity.minAnonymitySet} wait, or ${anonymity.maxDelaySeconds} s`}</td></tr>`,
  );
  const warnings = anonymity.warnings.map((warning) => html`<li class="bad">${warning}</li>`);
  return html`<section id="anonymity">
<h2>Anonymity</h2>
<table><tbody>
<tr><td>mint delay</td><td>${anonymity.minDelaySeconds}..${anonymity.maxDelaySeconds} s after acceptance</td></tr>
<tr><td>crowd a due mint waits for (min_anonymity_set)</td><td class="num">${anonymity.minAnonymitySet}</td></tr>
<tr><td>payments waiting to be minted</td><td class="num">${anonymity.waiting}</td></tr>
<tr><td>same-value decoys wanted per real leaf of a proof request</td><td class="num">${anonymity.decoysPerProofRequest}</td></tr>
<tr><td>real leaves sent with fewer decoys since start</td><td class="num">${anonymity.decoysShort ?? "not reported"}</td></tr>
<tr><td>mints sent by</td><td>${anonymity.separateMinter ? "a separate minter account" : "the relayer account"}</td></tr>
</tbody></table>
${anonymity.crowds.length === 0 ? html`<p class="muted">no payment waiting</p>` : html`<table><thead><tr><th>amount (base units)</th><th>waiting</th><th>crowd reached</th></tr></thead><tbody>${crowds}</tbody></table>`}
${warnings.length === 0 ? "" : html`<ul>${warnings}</ul>`}
</section>`;
}

function balancesSection({ status }: OperatorPageView): SafeHtml {
  const accounts = [
    { name: "relayer", ...status.relayer },
    { name: "treasury", ...status.treasury },
    ...(status.minter ? [{ name: "minter", ...status.minter }] : []),
  ];
  const rows = accounts.map(
    (account) =>
      html`<tr><td>${account.name}</td><td><code>${account.address}</code></td><td class="num">${account.balanceWei === null ? "unknown (RPC did not answer)" : `${formatEther(BigInt(account.balanceWei))} ETH`}</td></tr>`,
  );
  return html`<section id="balances">
<h2>Balances</h2>
<table><thead><tr><th>account</th><th>address</th><th>balance</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">relayer queue depth: ${status.relayer.queueDepth}</p>
</section>`;
}

const CHART = { width: 720, height: 150, top: 10, bottom: 20, slot: 12, bar: 5 } as const;

function throughputSection(minutes: readonly ThroughputMinute[]): SafeHtml {
  const peak = Math.max(1, ...minutes.flatMap((minute) => [minute.accepted, minute.finalized]));
  const plot = CHART.height - CHART.top - CHART.bottom;
  const baseline = CHART.top + plot;
  const bar = (minute: ThroughputMinute, index: number, count: number, offset: number, colour: string, label: string) => {
    if (count === 0) return "";
    const height = Math.max(1, Math.round((count / peak) * plot));
    return html`<rect class="bar" x="${index * CHART.slot + offset}" y="${baseline - height}" width="${CHART.bar}" height="${height}" fill="${colour}"><title>${count} ${label}, ${minute.minutesAgo} min ago</title></rect>`;
  };
  const bars = minutes.map((minute, index) => [
    bar(minute, index, minute.accepted, 1, ACCEPTED_COLOUR, "accepted"),
    bar(minute, index, minute.finalized, 1 + CHART.bar, FINALIZED_COLOUR, "finalized"),
  ]);
  const accepted = minutes.reduce((sum, minute) => sum + minute.accepted, 0);
  const finalized = minutes.reduce((sum, minute) => sum + minute.finalized, 0);
  return html`<section id="throughput">
<h2>Throughput, last ${minutes.length} minutes</h2>
<svg xmlns="http://www.w3.org/2000/svg" width="${CHART.width}" height="${CHART.height}" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="accepted and finalized payments per minute">
<line x1="0" y1="${baseline}" x2="${CHART.width}" y2="${baseline}" stroke="#999"/>
${bars}
<text x="0" y="${CHART.height - 5}" font-size="11" fill="#6b6b6b">${minutes.length} min ago</text>
<text x="${CHART.width}" y="${CHART.height - 5}" font-size="11" fill="#6b6b6b" text-anchor="end">now</text>
<text x="${CHART.width}" y="${CHART.top + 10}" font-size="11" fill="#6b6b6b" text-anchor="end">peak ${peak}/min</text>
</svg>
<p class="legend"><span><i class="swatch accepted"></i>accepted (${accepted})</span><span><i class="swatch finalized"></i>finalized (${finalized})</span></p>
</section>`;
}

/** At most two decimals, no trailing zeros, as `status` prints rates. */
function formatRate(perSecond: number): string {
  return String(Number(perSecond.toFixed(2)));
}
