/**
 * The prover port: how the finalize loop obtains the withdraw proof that `singleTeleport` / `teleport`
 * verify. A real adapter runs the zERC20 Groth16 prover for the single path and the Nova folding + decider
 * for the batch path; the local stack's fixture adapter signs the public inputs with the published fixture
 * key instead (and is refused outside profile `local` on chain 31337).
 *
 * What a proof states: every transfer in `transfers` is a leaf of the transfer tree under `root` (the version's
 * leaf: v1 `P2(to, value)`, v2 `P3(from, to, value)`, with `to` the burn address), where the burn address is
 * the one `secret` opens for `recipientHash` under the version's formula, and the values sum to `value`.
 * Public inputs are `[root, recipientHash, value]`; the secret, the tweak and the paths stay private to the
 * prover. These inputs are the witness: never logged.
 */
import type { Address, Hex } from "viem";
import type { GeneralRecipient, ProtocolVersion } from "@svc/scheme";

/** One transfer into the burn address with its sender and its Merkle path (40 siblings, bottom-up). */
export type ProvenTransfer = { leafIndex: bigint; from: Address; value: bigint; siblings: readonly bigint[] };

/** The private and public inputs of one withdraw proof. */
export type WithdrawProofInputs = {
  /** The protocol version the burn address was derived under; its circuit proves it. */
  protocol: ProtocolVersion;
  /** Proved transfer root the paths lead to. */
  root: bigint;
  /** Tree index of that root (the verifier's `rootHint`). */
  rootIndex: bigint;
  /** Where the mint goes: chain, recipient, tweak. */
  recipient: GeneralRecipient;
  /** `hash(recipient)`: the circuit's public recipient input. */
  recipientHash: Hex;
  /** The burn address the transfers went to. */
  burnAddress: Address;
  /** Poseidon secret of the burn address. */
  secret: bigint;
  /** Every transfer being withdrawn; one for the single path, several for the batch path. */
  transfers: readonly ProvenTransfer[];
  /** Sum of the transfers' values: the total the verifier mints (minus what it already minted). */
  value: bigint;
};

/** Produces the proof bytes the verifier's `singleTeleport` (one transfer) or `teleport` (several) take. */
export type ProverPort = {
  proveSingle: (inputs: WithdrawProofInputs) => Promise<Hex>;
  proveBatch: (inputs: WithdrawProofInputs) => Promise<Hex>;
};
