import type { HistoryPaymentView } from "@svc/scheme";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";

import { buildPolicy } from "../../testing/buildPolicy.js";
import { waitForFrame, waitForText } from "../../testing/waitForFrame.js";
import type { TuiDependencies } from "../tuiDependencies.js";
import { App } from "./App.js";

/** A payment as the facilitator shows it to the payer, with overrides. */
function buildHistoryPayment(overrides: Partial<HistoryPaymentView> = {}): HistoryPaymentView {
  return {
    paymentId: `0x${"3c".repeat(32)}`,
    state: "accepted",
    path: "permit",
    network: "eip155:31337",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    amount: "1010",
    intentAt: 1_893_456_000,
    acceptedAt: 1_893_456_002,
    ...overrides,
  };
}

/** A supervising TUI (no URL) whose history dependency answers `read`. */
function renderApp(history: TuiDependencies["history"]) {
  const dependencies: TuiDependencies = {
    policy: buildPolicy({ stateDir: "/nonexistent-state" }),
    quote: () => Promise.reject(new Error("no quote in this test")),
    verdict: () => Promise.reject(new Error("no verdict in this test")),
    pay: () => Promise.reject(new Error("no payment in this test")),
    tokenInfo: async () => undefined,
    spend: async () => [
      {
        id: "c000f6fe7432",
        createdAt: "2030-01-01T00:00:00.000Z",
        updatedAt: "2030-01-01T00:00:02.000Z",
        status: "settled",
        url: "http://127.0.0.1:4021/weather",
        mode: "permit",
        network: "eip155:31337",
        asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        amount: 1010n,
        payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
        challengeNonce: `0x${"3c".repeat(32)}`,
        expiresAt: 1_893_456_300,
      },
    ],
    pendingApprovals: async () => [],
    decide: async () => undefined,
    history,
    now: () => 1_893_456_100_000,
    pollMs: 1_000,
  };
  return render(<App dependencies={dependencies} binaryName="svc-agent" />);
}

describe("history view", () => {
  it("opens on h, lists the payer's payments read from the facilitator, and closes on h", async () => {
    let reads = 0;
    const app = renderApp(async () => {
      reads += 1;
      return [buildHistoryPayment(), buildHistoryPayment({ paymentId: `0x${"4d".repeat(32)}`, state: "finalized", finalizedAt: 1_893_456_060 })];
    });
    await waitForText(app.lastFrame, "h history");
    app.stdin.write("h");
    const frame = await waitForText(app.lastFrame, "Payment history", "h hide history", "payer: none (SVC_PAYER_PK unset");
    // The agent's own id for a payment it made (the id `pay` printed, which `proof` takes); the full
    // facilitator id, which `proof` takes too, for one made elsewhere. Never a truncated id.
    expect(frame).toContain("c000f6fe7432  accepted   1010 base units  permit  2030-01-01T00:00:02Z");
    expect(frame).toContain("-             finalized  1010 base units  permit  2030-01-01T00:01:00Z");
    expect(frame).toContain(`id 0x${"4d".repeat(32)}`);
    expect(frame).not.toContain("…");
    app.stdin.write("h");
    await waitForText(app.lastFrame, "h history");
    expect(app.lastFrame()).not.toContain("Payment history");
    expect(reads).toBe(1);
    app.unmount();
  });

  it("shows a bounded window of a long history and scrolls it with the arrows", async () => {
    const payments = Array.from({ length: 10 }, (_, index) => buildHistoryPayment({ paymentId: `0x${index.toString(16).padStart(2, "0").repeat(32)}`, amount: String(1000 + index) }));
    const app = renderApp(async () => payments);
    await waitForText(app.lastFrame, "h history");
    app.stdin.write("h");
    const first = await waitForText(app.lastFrame, "1-6 of 10 · ↑/↓ scroll");
    expect(first).toContain("1000 base units");
    expect(first).toContain("1005 base units");
    expect(first).not.toContain("1006 base units");
    app.stdin.write("j");
    app.stdin.write("j");
    const scrolled = await waitForText(app.lastFrame, "3-8 of 10");
    expect(scrolled).not.toContain("1001 base units");
    expect(scrolled).toContain("1007 base units");
    for (let step = 0; step < 12; step += 1) app.stdin.write("j");
    await waitForText(app.lastFrame, "10-10 of 10");
    app.stdin.write("\u001b");
    await waitForFrame(app.lastFrame, (frame) => !frame.includes("Payment history"));
    app.unmount();
  });

  it("shows why the history is unavailable", async () => {
    const app = renderApp(() => Promise.reject(new Error("the facilitator is unreachable")));
    await waitForText(app.lastFrame, "h history");
    app.stdin.write("h");
    await waitForText(app.lastFrame, "history unavailable: the facilitator is unreachable");
    app.unmount();
  });

  it("offers no history key without a facilitator", async () => {
    const app = renderApp(undefined);
    const frame = await waitForText(app.lastFrame, "q quit");
    expect(frame).not.toContain("history");
    app.unmount();
  });
});
