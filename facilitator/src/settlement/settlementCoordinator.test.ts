import type { SettleResponse } from "@svc/scheme";
import { describe, expect, it } from "vitest";
import { SettlementCoordinator } from "./settlementCoordinator.js";

const nonce = `0x${"ab".repeat(32)}` as const;
const accepted: SettleResponse = { success: true, transaction: `0x${"01".repeat(32)}`, network: "eip155:31337", extra: { phase: "accepted" } };

describe("SettlementCoordinator", () => {
  it("claims the challenge before the settle starts and releases it when it ends, in any letter case", async () => {
    const coordinator = new SettlementCoordinator();
    let finish: (response: SettleResponse) => void = () => undefined;
    let started = false;
    const result = coordinator.run(nonce, "0x01", () => {
      started = true;
      return new Promise((resolve) => (finish = resolve));
    });
    expect(started).toBe(false);
    expect(coordinator.running(nonce.toUpperCase().replace("0X", "0x") as `0x${string}`)?.digest).toBe("0x01");
    expect(coordinator.inflight()).toHaveLength(1);
    await Promise.resolve();
    finish(accepted);
    expect(await result).toEqual(accepted);
    expect(coordinator.running(nonce)).toBeUndefined();
    expect(coordinator.inflight()).toEqual([]);
  });

  it("releases the claim when the settle throws", async () => {
    const coordinator = new SettlementCoordinator();
    await expect(coordinator.run(nonce, "0x01", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(coordinator.running(nonce)).toBeUndefined();
  });
});
