import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ProverWitnessError } from "./errors.js";
import { encodeProverWitness, ProverWitnessSchema } from "./proverWitness.js";
import { buildBatchWithdrawProofInputs, buildWithdrawProofInputs, secretSpellings } from "./testing/buildWithdrawProofInputs.js";

function witnessErrorOf(run: () => unknown): ProverWitnessError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProverWitnessError) return error;
    throw error;
  }
  throw new Error("expected a ProverWitnessError");
}

describe("encodeProverWitness", () => {
  it("pins the JSON layout of a single-circuit witness, field by field and in order", () => {
    const witness = encodeProverWitness({ inputs: buildWithdrawProofInputs(), circuit: "single", chainId: 31337 });
    const siblings = witness.transfers[0]?.siblings ?? [];
    expect(siblings).toEqual(Array.from({ length: 40 }, (_, level) => `0x${(level + 1).toString(16)}`));
    // The 40 siblings are checked above; the snapshot shows the layout around them.
    const shown = { ...witness, transfers: witness.transfers.map((transfer) => ({ ...transfer, siblings: [...transfer.siblings.slice(0, 2), "…"] })) };
    expect(JSON.stringify(shown, null, 2)).toMatchInlineSnapshot(`
      "{
        "version": 1,
        "protocol": "zerc20-v2",
        "circuit": "single",
        "chain_id": 31337,
        "root": "0x1d2a6b4c9e0f3a58",
        "root_index": 7,
        "recipient": {
          "chain_id": 31337,
          "recipient": "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8",
          "tweak": "0x0707070707070707070707070707070707070707070707070707070707070707"
        },
        "recipient_hash": "0x1cce8dc91f1b1d54e9e5a009c75e711e58f4db3b3f940cbf829acd21a895355",
        "burn_address": "0x3034a16D0E8b774fC609A8ADcbE89Ed3C5bAD8c3",
        "secret": "0x2bd562a04b1f9c3e77d10ae5c4f83a6915be0d72e8c41f6a93b750dc28e14f0b",
        "value": "0x1f4",
        "transfers": [
          {
            "leaf_index": 12,
            "from": "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
            "to": "0x3034a16D0E8b774fC609A8ADcbE89Ed3C5bAD8c3",
            "value": "0x1f4",
            "siblings": [
              "0x1",
              "0x2",
              "…"
            ]
          }
        ]
      }"
    `);
  });

  it("writes every transfer of a batch with its sender, the burn address as `to`, and its own path", () => {
    const inputs = buildBatchWithdrawProofInputs();
    const witness = encodeProverWitness({ inputs, circuit: "batch", chainId: 8453 });
    expect(witness.circuit).toBe("batch");
    expect(witness.chain_id).toBe(8453);
    expect(witness.value).toBe("0x3e8");
    expect(witness.transfers.map(({ leaf_index, to, value }) => ({ leaf_index, to, value }))).toEqual([
      { leaf_index: 12, to: witness.burn_address, value: "0x1f4" },
      { leaf_index: 13, to: witness.burn_address, value: "0xc8" },
      { leaf_index: 20, to: witness.burn_address, value: "0x12c" },
    ]);
  });

  it("writes addresses in EIP-55 form and bytes32 in lowercase, whatever case the inputs use", () => {
    const inputs = buildWithdrawProofInputs();
    const witness = encodeProverWitness({
      inputs: {
        ...inputs,
        burnAddress: inputs.burnAddress.toLowerCase() as `0x${string}`,
        recipient: { ...inputs.recipient, tweak: `0x${"AB".repeat(32)}` },
        recipientHash: inputs.recipientHash.toUpperCase().replace("0X", "0x") as `0x${string}`,
      },
      circuit: "single",
      chainId: 31337,
    });
    expect(witness.burn_address).toBe("0x3034a16D0E8b774fC609A8ADcbE89Ed3C5bAD8c3");
    expect(witness.recipient.tweak).toBe(`0x${"ab".repeat(32)}`);
    expect(witness.recipient_hash).toBe(`0x${BigInt(inputs.recipientHash).toString(16)}`);
  });

  it("is what its schema accepts, so the schema documents the wire", () => {
    const witness = encodeProverWitness({ inputs: buildBatchWithdrawProofInputs(), circuit: "batch", chainId: 31337 });
    expect(ProverWitnessSchema.parse(JSON.parse(JSON.stringify(witness)))).toEqual(witness);
  });

  it.each([
    [
      "two transfers on the single circuit",
      () => encodeProverWitness({ inputs: buildBatchWithdrawProofInputs(), circuit: "single", chainId: 1 }),
      "transfers: the single circuit proves exactly one transfer",
    ],
    [
      "a path of 39 siblings",
      () => {
        const inputs = buildWithdrawProofInputs();
        const transfers = inputs.transfers.map((transfer) => ({ ...transfer, siblings: transfer.siblings.slice(1) }));
        return encodeProverWitness({ inputs: { ...inputs, transfers }, circuit: "single", chainId: 1 });
      },
      "transfers[0].siblings: expected 40 siblings",
    ],
    [
      "no transfer at all",
      () => encodeProverWitness({ inputs: buildWithdrawProofInputs({ transfers: [] }), circuit: "batch", chainId: 1 }),
      "transfers: expected at least one transfer",
    ],
    [
      "a root index beyond a JSON number",
      () => encodeProverWitness({ inputs: buildWithdrawProofInputs({ rootIndex: 2n ** 53n }), circuit: "single", chainId: 1 }),
      "root_index: outside 0..2^53 - 1",
    ],
    [
      "a negative value",
      () => encodeProverWitness({ inputs: buildWithdrawProofInputs({ value: -1n }), circuit: "single", chainId: 1 }),
      "a uint256 field is outside 0..2^256 - 1",
    ],
  ])("refuses %s, naming the field and never a value", (_why, run, problem) => {
    const error = witnessErrorOf(run);
    expect(error.message).toContain(problem);
    for (const spelling of secretSpellings()) expect(inspect(error, { depth: 10 })).not.toContain(spelling);
  });
});

describe("ProverWitnessSchema", () => {
  const witness = encodeProverWitness({ inputs: buildWithdrawProofInputs(), circuit: "single", chainId: 31337 });

  it.each([
    ["a padded uint256", { root: `0x0${witness.root.slice(2)}` }],
    ["an upper-case uint256", { secret: witness.secret.toUpperCase().replace("0X", "0x") }],
    ["a u64 written as a string", { root_index: "7" }],
    ["a lower-case address", { burn_address: witness.burn_address.toLowerCase() }],
    ["another layout version", { version: 2 }],
    ["an unknown field", { note: "hi" }],
    ["a transfer to another address", { transfers: witness.transfers.map((transfer) => ({ ...transfer, to: transfer.from })) }],
  ])("refuses %s", (_why, change) => {
    expect(ProverWitnessSchema.safeParse({ ...witness, ...change }).success).toBe(false);
  });
});
