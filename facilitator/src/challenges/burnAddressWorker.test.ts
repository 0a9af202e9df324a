import { burnAddressFromHash, burnAddressHash } from "@svc/scheme";
import { describe, expect, it } from "vitest";

import { BurnAddressWorkerError } from "./errors.js";
import { BurnAddressWorker } from "./burnAddressWorker.js";

describe("BurnAddressWorker", () => {
  it("finds the nonce of the published zERC20 burn-address vector", async () => {
    const worker = new BurnAddressWorker();
    try {
      const nonce = await worker.search(123456789n, 1000n);
      expect(nonce).toBe(4346n);
      expect(burnAddressFromHash(burnAddressHash(123456789n, 1000n + nonce)).toLowerCase()).toBe("0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8");
    } finally {
      await worker.terminate();
    }
  });

  it("rejects unanswered searches when terminated and refuses new ones", async () => {
    const worker = new BurnAddressWorker();
    const search = worker.search(123456789n, 1000n);
    const settled = expect(search).rejects.toBeInstanceOf(BurnAddressWorkerError);
    await worker.terminate();
    await settled;
    await expect(search).rejects.toThrowErrorMatchingInlineSnapshot(`[BurnAddressWorkerError: the burn-address worker stopped: it was terminated]`);
    expect(worker.alive).toBe(false);
    expect(worker.pending).toBe(0);
    await expect(worker.search(1n, 1n)).rejects.toBeInstanceOf(BurnAddressWorkerError);
  });
});
