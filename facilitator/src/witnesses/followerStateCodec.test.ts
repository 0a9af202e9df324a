import { emptyIncrementalTreeState, TRANSFER_TREE_HEIGHT } from "@svc/scheme";
import { describe, expect, it } from "vitest";
import type { TreeFollowerState } from "./createTreeFollower.js";
import { decodeFollowerState, encodeFollowerState } from "./followerStateCodec.js";

const state: TreeFollowerState = {
  tree: {
    ...emptyIncrementalTreeState(),
    size: 5n,
    tracked: [{ leafIndex: 3n, leaf: 2n ** 250n, siblings: Array.from({ length: TRANSFER_TREE_HEIGHT }, (_, level) => BigInt(level)) }],
  },
  hashChain: 123n,
  nextBlock: 77n,
  lastChecked: { index: 5n, root: 2n ** 200n },
  trackedRecipients: [{ leafIndex: 3n, to: "0x00000000000000000000000000000000000000b1" }],
};

describe("follower state codec", () => {
  it("gives back the state it encoded, bigints exact", () => {
    expect(decodeFollowerState(encodeFollowerState(state))).toEqual(state);
    const { lastChecked: _unchecked, ...fresh } = state;
    expect(decodeFollowerState(encodeFollowerState(fresh))).toEqual(fresh);
  });

  it("reads a state saved before recipients were kept: its paths stay, with no recipient", () => {
    const { trackedRecipients: _recipients, ...older } = state;
    expect(decodeFollowerState(encodeFollowerState(older))).toEqual(older);
  });

  it.each([
    ["not JSON", "{"],
    ["another version", encodeFollowerState(state).replace('"version":1', '"version":2')],
    ["a short frontier", JSON.stringify({ ...JSON.parse(encodeFollowerState(state)), tree: { size: "5", frontier: ["1"], tracked: [] } })],
    ["a negative block", encodeFollowerState(state).replace('"nextBlock":"77"', '"nextBlock":"-1"')],
    ["a recipient that is no address", encodeFollowerState(state).replace("0x00000000000000000000000000000000000000b1", "0xb1")],
  ])("refuses %s as a whole", (_what, text) => {
    expect(decodeFollowerState(text)).toBeUndefined();
  });
});
