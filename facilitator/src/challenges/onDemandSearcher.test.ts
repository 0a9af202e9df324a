/**
 * The on-demand searcher on real worker threads: a thread starts for a search, answers the published vector,
 * exits once idle, and a thread that died is replaced by the next search.
 */
import { waitFor } from "@svc/anvil-fixtures";
import { describe, expect, it } from "vitest";

import { BurnAddressWorker } from "./burnAddressWorker.js";
import { createOnDemandSearcher } from "./onDemandSearcher.js";

// The published v1 burn-address vector (zerc20-real.md): recipient 123456789, secret base 1000, nonce 4346.
const vector = { protocol: "zerc20-v1", recipientFr: 123456789n, secretBase: 1000n } as const;

describe("createOnDemandSearcher", () => {
  it("starts a thread for a search, stops it once idle, and starts another for the next search", async () => {
    const started: BurnAddressWorker[] = [];
    const searcher = createOnDemandSearcher({
      start: () => {
        const worker = new BurnAddressWorker();
        started.push(worker);
        return worker;
      },
      idleMs: 50,
    });
    try {
      expect(searcher.running).toBe(false);
      expect((await searcher.search(vector)).nonce).toBe(4346n);
      expect(started).toHaveLength(1);
      await waitFor(() => (searcher.running ? undefined : true), { what: "the idle thread stopped", timeoutMs: 5_000 });
      expect(started[0]?.alive).toBe(false);
      expect((await searcher.search(vector)).nonce).toBe(4346n);
      expect(started).toHaveLength(2);
    } finally {
      await searcher.close();
    }
    expect(searcher.running).toBe(false);
  });

  it("replaces a thread that died instead of failing every later search", async () => {
    const started: BurnAddressWorker[] = [];
    const searcher = createOnDemandSearcher({
      start: () => {
        const worker = new BurnAddressWorker();
        started.push(worker);
        return worker;
      },
      idleMs: 60_000,
    });
    try {
      expect((await searcher.search(vector)).nonce).toBe(4346n);
      await started[0]?.terminate();
      expect((await searcher.search(vector)).nonce).toBe(4346n);
      expect(started).toHaveLength(2);
    } finally {
      await searcher.close();
    }
  });
});
