/**
 * The witness a command or HTTP prover receives: one JSON object per proof, built from the finalize loop's
 * {@link WithdrawProofInputs}. Conventions follow the zERC20 indexer's JSON: u64 fields are JSON numbers,
 * uint256 fields lowercase `0x` hex without leading zeros (`"0x0"`), addresses EIP-55, bytes32 `0x` and 64
 * lowercase hex digits; keys are snake_case. `facilitator/README.md` documents it field by field.
 *
 * It holds the burn secret: whoever reads it can withdraw the burn. It is written only to the prover, never to
 * a log line, an error or a file.
 */
import { ProtocolVersionSchema, TRANSFER_TREE_HEIGHT } from "@svc/scheme";
import { getAddress, hexToBigInt, isAddress, toHex, type Hex } from "viem";
import { z } from "zod";
import type { WithdrawProofInputs } from "../proverPort.js";
import { ProverWitnessError } from "./errors.js";

/** The witness layout version; a new layout gets a new number, never a silent change. */
export const PROVER_WITNESS_VERSION = 1;

/** Which proof is asked for: `single` (Groth16, one transfer, `singleTeleport`) or `batch` (decider, `teleport`). */
export type ProverCircuit = "single" | "batch";

const u64 = z.int({ error: "expected a JSON integer" }).nonnegative({ error: "expected a non-negative integer" });
const uint256 = z.string().regex(/^0x(?:0|[1-9a-f][0-9a-f]{0,63})$/, { error: 'expected lowercase 0x hex without leading zeros ("0x0")' });
const bytes32 = z.string().regex(/^0x[0-9a-f]{64}$/, { error: "expected 0x and 64 lowercase hex digits" });
const address = z.string().refine((value) => isAddress(value, { strict: true }) && getAddress(value) === value, { error: "expected an EIP-55 address" });

const transferSchema = z.strictObject({
  leaf_index: u64,
  from: address,
  to: address,
  value: uint256,
  siblings: z.array(uint256).length(TRANSFER_TREE_HEIGHT, { error: `expected ${TRANSFER_TREE_HEIGHT} siblings` }),
});

/** The witness JSON, as a program or service receives it. */
export const ProverWitnessSchema = z
  .strictObject({
    version: z.literal(PROVER_WITNESS_VERSION),
    protocol: ProtocolVersionSchema,
    circuit: z.enum(["single", "batch"]),
    chain_id: u64,
    root: uint256,
    root_index: u64,
    recipient: z.strictObject({ chain_id: u64, recipient: bytes32, tweak: bytes32 }),
    recipient_hash: uint256,
    burn_address: address,
    secret: uint256,
    value: uint256,
    transfers: z.array(transferSchema).min(1, { error: "expected at least one transfer" }),
  })
  .superRefine((witness, ctx) => {
    if (witness.circuit === "single" && witness.transfers.length !== 1) {
      ctx.addIssue({ code: "custom", path: ["transfers"], message: "the single circuit proves exactly one transfer" });
    }
    witness.transfers.forEach((transfer, index) => {
      if (transfer.to !== witness.burn_address) ctx.addIssue({ code: "custom", path: ["transfers", index, "to"], message: "must be the burn address" });
    });
  });

/** A witness as the JSON carries it. */
export type ProverWitness = z.infer<typeof ProverWitnessSchema>;

/** What {@link encodeProverWitness} needs: the proof inputs, the circuit, and the chain whose transfer tree `root` is of. */
export type EncodeProverWitnessParameters = {
  inputs: WithdrawProofInputs;
  circuit: ProverCircuit;
  /** The chain of the token and verifier (`network.chain_id`). */
  chainId: number;
};

/**
 * Builds the witness JSON object of one proof; throws {@link ProverWitnessError} (naming the field, never a
 * value) when the inputs cannot be written in the layout.
 *
 * @example
 * const body = JSON.stringify(encodeProverWitness({ inputs, circuit: "single", chainId: 8453 }));
 */
export function encodeProverWitness({ inputs, circuit, chainId }: EncodeProverWitnessParameters): ProverWitness {
  const burnAddress = getAddress(inputs.burnAddress);
  const candidate = {
    version: PROVER_WITNESS_VERSION,
    protocol: inputs.protocol,
    circuit,
    chain_id: u64Number(BigInt(chainId), "chain_id"),
    root: uint256Hex(inputs.root),
    root_index: u64Number(inputs.rootIndex, "root_index"),
    recipient: {
      chain_id: u64Number(inputs.recipient.chainId, "recipient.chain_id"),
      recipient: inputs.recipient.recipient.toLowerCase(),
      tweak: inputs.recipient.tweak.toLowerCase(),
    },
    recipient_hash: uint256Hex(hexToBigInt(inputs.recipientHash)),
    burn_address: burnAddress,
    secret: uint256Hex(inputs.secret),
    value: uint256Hex(inputs.value),
    transfers: inputs.transfers.map((transfer, index) => ({
      leaf_index: u64Number(transfer.leafIndex, `transfers[${index}].leaf_index`),
      from: getAddress(transfer.from),
      to: burnAddress,
      value: uint256Hex(transfer.value),
      siblings: transfer.siblings.map(uint256Hex),
    })),
  };
  const parsed = ProverWitnessSchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  // Paths and our own messages only: an issue's input would be a witness value.
  const [issue] = parsed.error.issues;
  const path = issue?.path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("")
    .replace(/^\./, "");
  throw new ProverWitnessError({ problem: `${path || "(root)"}: ${issue?.message ?? "invalid"}` });
}

function u64Number(value: bigint, field: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ProverWitnessError({ problem: `${field}: outside 0..2^53 - 1, which a JSON number carries exactly` });
  }
  return Number(value);
}

function uint256Hex(value: bigint): Hex {
  if (value < 0n || value >= 1n << 256n) throw new ProverWitnessError({ problem: "a uint256 field is outside 0..2^256 - 1" });
  return toHex(value);
}
