/**
 * The follower's persistence as the finalize loop drives it (selfWitnesses.ts), with a fake follower and the
 * embedded adapter's state port in memory: where it opens from, when it saves, and how a failure is reported.
 */
import { describe, expect, it } from "vitest";
import type { Logger } from "../log/createLogger.js";
import { witnessStateFile } from "../storage/witnessStateFile.js";
import { initialFollowerState, type TreeFollower, type TreeFollowerState } from "../witnesses/createTreeFollower.js";
import { WitnessRootMismatchError } from "../witnesses/errors.js";
import { encodeFollowerState } from "../witnesses/followerStateCodec.js";
import { createSelfWitnesses } from "./selfWitnesses.js";

function recordingLogger(): { logger: Logger; events: { level: string; event: string; fields: Record<string, unknown> }[] } {
  const events: { level: string; event: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (event: string, fields?: Record<string, unknown>) => void events.push({ level, event, fields: fields ?? {} });
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } as Logger, events };
}

/** A follower that appends `step` leaves per sync (none once `stalled`), or throws a mismatch. */
function fakeCreate(behaviour: { step: bigint; mismatch?: boolean }) {
  const opened: TreeFollowerState[] = [];
  const create = (state: TreeFollowerState): TreeFollower => {
    opened.push(state);
    let current = state;
    const progress = () => ({
      leaves: current.tree.size,
      nextBlock: current.nextBlock,
      provedIndex: current.tree.size,
      finalBlock: current.nextBlock,
      lastChecked: current.lastChecked,
      tracked: current.tree.tracked.length,
    });
    return {
      sync: async () => {
        if (behaviour.mismatch) throw new WitnessRootMismatchError({ index: current.tree.size, proved: 1n, computed: 2n });
        const size = current.tree.size + behaviour.step;
        current = { ...current, tree: { ...current.tree, size }, nextBlock: current.nextBlock + behaviour.step, lastChecked: { index: size, root: 9n } };
        return progress();
      },
      proofs: () => [],
      release: () => undefined,
      progress,
      state: () => current,
    };
  };
  return { create, opened };
}

const BINDING = "31337:0xtoken";

describe("createSelfWitnesses", () => {
  it("opens at the deployment block, saves a sync that moved, skips one that did not, and a new one resumes from the save", async () => {
    const store = witnessStateFile(null);
    const saves: bigint[] = [];
    const counted = {
      load: store.load,
      save: (binding: string, leaves: bigint, body: string) => {
        saves.push(leaves);
        return store.save(binding, leaves, body);
      },
    };
    const moving = fakeCreate({ step: 4n });
    const { logger, events } = recordingLogger();
    const first = createSelfWitnesses({ create: moving.create, deployBlock: 100n, binding: BINDING, store: counted, logger });
    await first.sync(undefined);
    await first.sync(undefined);
    expect(moving.opened).toEqual([initialFollowerState(100n)]);
    expect(saves).toEqual([4n, 8n]);
    expect(events.find((entry) => entry.event === "witness_follower_opened")?.fields).toEqual({ leaves: "0", next_block: "100", restored: false });

    const still = fakeCreate({ step: 0n });
    const second = createSelfWitnesses({ create: still.create, deployBlock: 100n, binding: BINDING, store: counted, logger });
    await second.sync(undefined);
    expect(still.opened[0]?.tree.size).toBe(8n);
    expect(still.opened[0]?.nextBlock).toBe(108n);
    expect(saves).toEqual([4n, 8n]);
    expect(second.progress()?.lastChecked).toEqual({ index: 8n, root: 9n });
  });

  it("reports the progress of a sync a mint's proofs request makes ahead of the pass", async () => {
    const { create } = fakeCreate({ step: 3n });
    const reported: bigint[] = [];
    const witnesses = createSelfWitnesses({
      create,
      deployBlock: 1n,
      binding: BINDING,
      store: witnessStateFile(null),
      logger: recordingLogger().logger,
      onProgress: (progress) => reported.push(progress.leaves),
    });
    await witnesses.sync(undefined);
    await expect(witnesses.indexer.proofs(5n, [])).resolves.toEqual([]);
    expect(reported).toEqual([0n, 3n, 6n]);
  });

  it("discards a saved state it cannot read, with a warning, and starts from the deployment block", async () => {
    const store = witnessStateFile(null);
    await store.save(BINDING, 3n, "not a state");
    const { create, opened } = fakeCreate({ step: 1n });
    const { logger, events } = recordingLogger();
    await createSelfWitnesses({ create, deployBlock: 7n, binding: BINDING, store, logger }).sync(undefined);
    expect(opened).toEqual([initialFollowerState(7n)]);
    expect(events.map((entry) => entry.event)).toContain("witness_state_discarded");
  });

  it("logs a root mismatch at error, saves nothing of it, and never throws into the pass", async () => {
    const store = witnessStateFile(null);
    const saved = { ...initialFollowerState(7n), nextBlock: 50n };
    await store.save(BINDING, 0n, encodeFollowerState(saved));
    const { create } = fakeCreate({ step: 1n, mismatch: true });
    const { logger, events } = recordingLogger();
    await expect(createSelfWitnesses({ create, deployBlock: 7n, binding: BINDING, store, logger }).sync(undefined)).resolves.toBeUndefined();
    expect(events.filter((entry) => entry.level === "error").map((entry) => entry.event)).toEqual(["witness_root_mismatch"]);
    expect(await store.load(BINDING)).toBe(encodeFollowerState(saved));
  });
});
