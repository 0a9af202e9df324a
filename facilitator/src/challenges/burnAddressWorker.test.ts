import { burnAddressFromHash } from "@svc/scheme";
import { poseidon2 } from "poseidon-lite";
import { describe, expect, it } from "vitest";

import { BurnAddressWorkerError } from "./errors.js";
import { BurnAddressWorker } from "./burnAddressWorker.js";

describe("BurnAddressWorker", () => {
  it("finds the nonces of the published burn-address vectors of both versions, with their reference hashes", async () => {
    const worker = new BurnAddressWorker();
    try {
      const v1 = await worker.search({ protocol: "zerc20-v1", recipientFr: 123456789n, secretBase: 1000n });
      expect(v1.nonce).toBe(4346n);
      expect(v1.hash).toBe(poseidon2([123456789n, 1000n + v1.nonce]));
      expect(burnAddressFromHash(v1.hash).toLowerCase()).toBe("0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8");
      const v2 = await worker.search({ protocol: "zerc20-v2", recipientFr: 123456789n, secretBase: 1000n });
      expect(v2.nonce).toBe(138276n);
      expect(burnAddressFromHash(v2.hash).toLowerCase()).toBe("0x3034a16d0e8b774fc609a8adcbe89ed3c5bad8c3");
    } finally {
      await worker.terminate();
    }
  });

  it("searches on the implementation and path it is handed, not on what the thread's environment would choose", async () => {
    const portable = new BurnAddressWorker({ name: "native", path: "portable" });
    const lite = new BurnAddressWorker({ name: "poseidon-lite", path: undefined });
    try {
      expect(await portable.loaded).toEqual({ name: "native", path: "portable" });
      expect(await lite.loaded).toEqual({ name: "poseidon-lite", path: null });
      expect((await portable.search({ protocol: "zerc20-v1", recipientFr: 123456789n, secretBase: 1000n })).nonce).toBe(4346n);
      expect((await lite.search({ protocol: "zerc20-v1", recipientFr: 123456789n, secretBase: 1000n })).nonce).toBe(4346n);
    } finally {
      await Promise.all([portable.terminate(), lite.terminate()]);
    }
  });

  it("rejects unanswered searches when terminated and refuses new ones", async () => {
    const worker = new BurnAddressWorker();
    const search = worker.search({ protocol: "zerc20-v1", recipientFr: 123456789n, secretBase: 1000n });
    const settled = expect(search).rejects.toBeInstanceOf(BurnAddressWorkerError);
    await worker.terminate();
    await settled;
    await expect(search).rejects.toThrowErrorMatchingInlineSnapshot(`[BurnAddressWorkerError: the burn-address worker stopped: it was terminated]`);
    expect(worker.alive).toBe(false);
    expect(worker.pending).toBe(0);
    await expect(worker.search({ protocol: "zerc20-v1", recipientFr: 1n, secretBase: 1n })).rejects.toBeInstanceOf(BurnAddressWorkerError);
  });
});
