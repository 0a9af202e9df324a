/**
 * Who may run on a journal: one daemon at a time, on the chain the journal was written on. A second daemon
 * started on the same config while one runs refuses at once and leaves every file as it was (before the lock,
 * it rewrote the stock file under the running one, whose next restart then refused its own offers); a daemon
 * pointed at a new chain (a fresh `make stack`) refuses the old chain's journal.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainIdentityMismatchError } from "../chain/chainIdentity.js";
import { JournalLockedError } from "../journal/errors.js";
import { waitFor } from "@svc/anvil-fixtures";
import { adminGet, requestOffer, startTestDaemon, startTestStack, type TestStack } from "../testing/localFacilitator.js";
import { startDaemon } from "./startDaemon.js";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

/** Every file beside the journal with its content and modification time. */
async function filesBeside(journal: string): Promise<Map<string, string>> {
  const folder = dirname(journal);
  const files = new Map<string, string>();
  for (const name of await readdir(folder)) {
    if (!name.startsWith("owned.")) continue;
    const path = join(folder, name);
    files.set(name, `${(await stat(path)).mtimeMs} ${await readFile(path, "utf8")}`);
  }
  return files;
}

describe("one daemon per journal", () => {
  it("refuses a second daemon on a running one's config, touching nothing, and lets it restart once stopped", async () => {
    const first = await startTestDaemon(stack, "owned");
    const journal = join(stack.dir, "owned.journal.jsonl");
    let running = true;
    try {
      await requestOffer(first, "1000");
      // The running daemon writes its stock file while it refills: the picture is taken once it is full.
      await waitFor(
        async () => {
          const { stock } = await adminGet(stack, first, "/admin/status");
          return stock.deriving === 0 && stock.stocked >= stock.target;
        },
        { timeoutMs: 30_000, what: "the first daemon's burn-address stock refilled" },
      );
      // The last address's line is appended just after it counts as stocked: two equal readings in a row.
      let last = await filesBeside(journal);
      const before = await waitFor(
        async () => {
          const now = await filesBeside(journal);
          const settled = JSON.stringify([...now]) === JSON.stringify([...last]);
          last = now;
          return settled && now;
        },
        { timeoutMs: 10_000, what: "the first daemon's files settled" },
      );
      expect([...before.keys()]).toEqual(expect.arrayContaining(["owned.journal.jsonl", "owned.journal.jsonl.stock", "owned.journal.jsonl.lock"]));

      const logs: string[] = [];
      const second = await startDaemon({ configPath: first.configPath, env: stack.env, write: (line) => logs.push(line) }).catch((error: unknown) => error);
      expect(second).toBeInstanceOf(JournalLockedError);
      expect((second as Error).message).toContain(`pid ${process.pid}`);
      expect(await filesBeside(journal)).toEqual(before);
      // The running daemon still issues offers, and they reach its files.
      const offer = await requestOffer(first, "1000");
      expect(await readFile(journal, "utf8")).toContain(offer.extra.challengeNonce);

      await first.stop();
      running = false;
      const restarted = await startTestDaemon(stack, "owned");
      try {
        expect((await requestOffer(restarted, "1000")).extra.challengeNonce).toMatch(/^0x[0-9a-f]{64}$/);
      } finally {
        await restarted.stop();
      }
    } finally {
      if (running) await first.stop();
    }
  });
});

describe("one chain per journal", () => {
  it("records the chain at the first start and refuses the journal on a new chain with the same chain id", async () => {
    const journal = join(stack.dir, "chain-bound.journal.jsonl");
    const first = await startTestDaemon(stack, "chain-bound", { settlement: { journal } });
    await requestOffer(first, "1000");
    await first.stop();
    const recorded = JSON.parse(await readFile(`${journal}.chain`, "utf8"));
    expect(recorded).toEqual({ chainId: 31337, genesisHash: (await stack.client.getBlock({ blockNumber: 0n })).hash });

    const journalBefore = await readFile(journal, "utf8");
    const newChain = await startTestStack();
    try {
      const refused = await startTestDaemon(newChain, "chain-bound", { settlement: { journal } }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ChainIdentityMismatchError);
      expect((refused as ChainIdentityMismatchError).actual.genesisHash).not.toBe(recorded.genesisHash);
      expect((refused as Error).message).toContain(journal);
      expect(await readFile(journal, "utf8")).toBe(journalBefore);
      // The refused start left no lock behind: the journal's own chain still runs it.
      const again = await startTestDaemon(stack, "chain-bound", { settlement: { journal } });
      await again.stop();
    } finally {
      await newChain.close();
    }
  });
});
