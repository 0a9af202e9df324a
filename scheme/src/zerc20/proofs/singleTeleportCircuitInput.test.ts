import { describe, expect, it } from "vitest";
import { ProofEncodingError } from "./errors.js";
import { singleTeleportCircuitInput, type SingleTeleportStatement } from "./singleTeleportCircuitInput.js";

const statement: SingleTeleportStatement = {
  root: 0x1d2a6b4c9e0f3a58n,
  recipientHash: 123n,
  secret: 0xe7e5n,
  transfer: {
    from: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    value: 500n,
    leafIndex: 12n,
    siblings: Array.from({ length: 40 }, (_, level) => BigInt(level + 1)),
  },
};

describe("singleTeleportCircuitInput", () => {
  it("names the circuit's signals, public first, in decimal, withdrawing the whole transfer (delta 0)", () => {
    const input = singleTeleportCircuitInput(statement);
    expect(Object.keys(input)).toEqual(["transferRoot", "recipientHash", "withdrawValue", "secret", "from", "value", "delta", "leafIndex", "siblings"]);
    expect(input).toMatchObject({
      transferRoot: "2101610152935242328",
      recipientHash: "123",
      withdrawValue: "500",
      secret: "59365",
      from: BigInt("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC").toString(),
      value: "500",
      delta: "0",
      leafIndex: "12",
    });
    expect(input.siblings).toHaveLength(40);
    expect(input.siblings.slice(0, 3)).toEqual(["1", "2", "3"]);
  });

  it("refuses a path of another height or a negative value, quoting no value", () => {
    const short = { ...statement, transfer: { ...statement.transfer, siblings: statement.transfer.siblings.slice(1) } };
    expect(() => singleTeleportCircuitInput(short)).toThrowErrorMatchingInlineSnapshot(
      `[ProofEncodingError: Malformed single-teleport circuit input proof: expected 40 siblings, got 39.]`,
    );
    expect(() => singleTeleportCircuitInput({ ...statement, secret: -1n })).toThrow(ProofEncodingError);
  });
});
