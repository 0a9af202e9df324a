import type { HistoryPaymentView } from "@svc/scheme";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";

import { buildPolicy } from "../../testing/buildPolicy.js";
import { waitForText } from "../../testing/waitForFrame.js";
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
    spend: async () => [],
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
    const frame = await waitForText(app.lastFrame, "Payment history", "0x3c3c3c…3c3c", "0x4d4d4d…4d4d", "h hide history");
    expect(frame).toContain("accepted   1010 base units  permit  2030-01-01T00:00:02.000Z");
    expect(frame).toContain("finalized  1010 base units  permit  2030-01-01T00:01:00.000Z");
    app.stdin.write("h");
    await waitForText(app.lastFrame, "h history");
    expect(app.lastFrame()).not.toContain("Payment history");
    expect(reads).toBe(1);
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
