import { describe, expect, it } from "vitest";

import type { AdminSettlement } from "./adminSettlement.js";
import { buildAppDependencies } from "../http/testing/buildAppDependencies.js";
import type { ReadinessReport } from "../readiness/readinessReport.js";
import type { AdminStatus } from "./adminStatus.js";
import { escapeHtml, html } from "./escapeHtml.js";
import { operatorPageView, type OperatorPageSources, RECENT_PAYMENTS } from "./operatorPageView.js";
import { renderOperatorPage } from "./renderOperatorPage.js";

const NOW = 1_800_000_000;
const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
const READY: ReadinessReport = {
  ready: true,
  checkedAt: 0,
  components: { rpc: { ready: true }, indexer: { ready: true }, journal: { ready: true }, stock: { ready: true } },
};

async function sources(overrides: Partial<OperatorPageSources> = {}): Promise<OperatorPageSources> {
  return {
    now: NOW,
    profile: "local",
    finalize: { min_delay_seconds: 60, max_delay_seconds: 1800, min_anonymity_set: 3 },
    readiness: READY,
    status: await buildAppDependencies().admin.status(),
    settlements: [],
    ...overrides,
  };
}

function settlement(index: number, fields: Partial<AdminSettlement> = {}): AdminSettlement {
  return {
    challengeNonce: `0x${index.toString(16).padStart(64, "0")}`,
    state: "accepted",
    path: "self-transfer",
    amount: "1000",
    burnTxHash: `0x${"ab".repeat(32)}`,
    acceptedAt: NOW - 30,
    ...fields,
  };
}

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and quoted attributes", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
    expect(html`<td title="${`"><b>`}">${["<i>", 1, html`<b>ok</b>`]}</td>`.markup).toBe('<td title="&quot;&gt;&lt;b&gt;">&lt;i&gt;1<b>ok</b></td>');
  });
});

describe("renderOperatorPage", () => {
  it("renders every section, the backlog rows and a bar per busy minute", async () => {
    const settlements = [
      settlement(1, { acceptedAt: NOW - 300, state: "finalized", finalizedAt: NOW - 100 }),
      settlement(2, { acceptedAt: NOW - 30 }),
      settlement(3, { acceptedAt: NOW - 7200 }),
    ];
    const page = renderOperatorPage(operatorPageView(await sources({ settlements })));
    expect(page.startsWith("<!doctype html>")).toBe(true);
    expect(page).toContain("<title>svc-facilitator operator page</title>");
    expect(page).toContain('<meta http-equiv="refresh" content="10">');
    for (const id of ["readiness", "backlog", "recent", "stock", "anonymity", "balances", "throughput"]) {
      expect(page).toContain(`<section id="${id}">`);
    }
    expect(page).toMatch(/<tr><td>accepted<\/td><td class="num">1<\/td><td>30s<\/td><\/tr>/);
    expect(page).toMatch(/<tr><td>late_burn<\/td><td class="num">1<\/td><td>1m 30s<\/td><\/tr>/);
    expect(page).toContain("<code>0x00000000…0002</code>");
    // Two accepted inside the hour (one two hours old is off the chart) and one finalized: three bars.
    expect(page.match(/<rect class="bar"/g)).toHaveLength(3);
    expect(page).toContain("accepted (2)");
    expect(page).toContain("finalized (1)");
    expect(page).toContain(">1 ETH<");
    expect(page).not.toContain("<script");
  });

  it("renders hostile values as inert text", async () => {
    const status: AdminStatus = await buildAppDependencies().admin.status();
    const hostileStatus: AdminStatus = {
      ...status,
      profile: HOSTILE,
      rpcEndpoints: [{ ...(status.rpcEndpoints[0] as AdminStatus["rpcEndpoints"][number]), origin: HOSTILE, up: false, lastError: HOSTILE }],
    };
    const settlements = [settlement(1, { state: "failed", reason: HOSTILE, amount: HOSTILE, challengeNonce: HOSTILE })];
    const page = renderOperatorPage(operatorPageView(await sources({ status: hostileStatus, settlements })));
    expect(page).not.toContain("<script>");
    expect(page).not.toContain("<img");
    expect(page).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  });

  it("renders an empty book and a profile without stock", async () => {
    const status = { ...(await buildAppDependencies().admin.status()), stock: null };
    const page = renderOperatorPage(operatorPageView(await sources({ status })));
    expect(page).toContain("no payments yet");
    expect(page).toContain("no payment waiting");
    expect(page).toContain("none: this profile issues no offers");
    expect(page).not.toContain('<rect class="bar"');
    expect(page).toContain("accepted (0)");
  });
});

describe("operatorPageView", () => {
  it("lists the newest payments first, shortened, with a reason only when failed", async () => {
    const settlements = Array.from({ length: RECENT_PAYMENTS + 5 }, (_, index) => settlement(index, { reason: "kept_back" }));
    settlements.push(settlement(99, { state: "failed", reason: "evidence_vanished", acceptedAt: NOW - 90 }));
    const view = operatorPageView(await sources({ settlements }));
    expect(view.recent).toHaveLength(RECENT_PAYMENTS);
    expect(view.recent[0]).toEqual({
      nonce: "0x00000000…0063",
      path: "self-transfer",
      amount: "1000",
      state: "failed",
      ageSeconds: 90,
      reason: "evidence_vanished",
    });
    expect(view.recent[1]?.reason).toBeNull();
  });

  it("groups waiting payments by amount against min_anonymity_set and names the linkability warnings", async () => {
    const settlements = [
      settlement(1, { amount: "5" }),
      settlement(2, { amount: "7" }),
      settlement(3, { amount: "7" }),
      settlement(4, { amount: "7" }),
      settlement(5, { amount: "9", state: "finalized" }),
    ];
    const view = operatorPageView(
      await sources({ settlements, profile: "production", finalize: { min_delay_seconds: 0, max_delay_seconds: 0, min_anonymity_set: 3 } }),
    );
    expect(view.anonymity).toMatchObject({
      waiting: 4,
      minAnonymitySet: 3,
      decoysPerProofRequest: 3,
      separateMinter: false,
      crowds: [
        { amount: "7", waiting: 3, reachesMinimum: true },
        { amount: "5", waiting: 1, reachesMinimum: false },
      ],
    });
    expect(view.anonymity.warnings).toHaveLength(2);
    expect((await sources()).profile).toBe("local");
    expect(operatorPageView(await sources({ settlements })).anonymity.warnings).toEqual([]);
  });

  it("shows how many real leaves went short of decoys as the daemon reports it, and says when it does not", async () => {
    const status = await buildAppDependencies().admin.status();
    const reported = operatorPageView(await sources({ status: { ...status, finalize: { releasedAlone: 0, decoysShort: 4 } } }));
    expect(reported.anonymity).toMatchObject({ decoysPerProofRequest: 3, decoysShort: 4 });
    expect(renderOperatorPage(reported)).toContain('<tr><td>real leaves sent with fewer decoys since start</td><td class="num">4</td></tr>');
    expect(status.finalize).toBeUndefined();
    const silent = operatorPageView(await sources({ status }));
    expect(silent.anonymity.decoysShort).toBeNull();
    expect(renderOperatorPage(silent)).toContain("not reported");
  });

  it("counts throughput per minute over the last hour, newest minute last", async () => {
    const settlements = [
      settlement(1, { acceptedAt: NOW - 5, finalizedAt: NOW }),
      settlement(2, { acceptedAt: NOW - 65 }),
      settlement(3, { acceptedAt: NOW + 60 }),
    ];
    const minutes = operatorPageView(await sources({ settlements })).throughput;
    expect(minutes).toHaveLength(60);
    expect(minutes.at(-1)).toEqual({ minutesAgo: 0, accepted: 1, finalized: 1 });
    expect(minutes.at(-2)).toEqual({ minutesAgo: 1, accepted: 1, finalized: 0 });
    expect(minutes.reduce((sum, minute) => sum + minute.accepted, 0)).toBe(2);
  });
});
