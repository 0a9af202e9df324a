/**
 * The inputs of a single-teleport Groth16 circuit, from one withdraw statement: the signal names the circuit
 * declares, public first and in the verifier's `pub` order (`transferRoot`, `recipientHash`, `withdrawValue`),
 * then the private ones (`secret`, `from`, `value`, `delta`, `leafIndex`, `siblings[40]`), each value as a
 * decimal string (what snarkjs reads). The whole transfer is withdrawn: `delta = 0`, `withdrawValue = value`.
 * Every Groth16 prover of this product (the facilitator's snarkjs adapter, a program behind its command adapter)
 * maps a statement through this one function. The result holds the burn secret: never log it.
 */
import { hexToBigInt, type Address } from "viem";
import { TRANSFER_TREE_HEIGHT } from "../merkle.js";
import { ProofEncodingError } from "./errors.js";

/** The one transfer a single teleport withdraws, with its Merkle path (bottom-up). */
export type SingleTeleportTransfer = { from: Address; value: bigint; leafIndex: bigint; siblings: readonly bigint[] };

/** What a single teleport proves: the transfer is a leaf under `root` into the burn address `secret` opens for `recipientHash`. */
export type SingleTeleportStatement = {
  /** The proved transfer root. */
  root: bigint;
  /** R, the general recipient's field element. */
  recipientHash: bigint;
  /** The burn address's secret (private). */
  secret: bigint;
  transfer: SingleTeleportTransfer;
};

/** The circuit's input signals, as snarkjs reads them. */
export type SingleTeleportCircuitInput = {
  transferRoot: string;
  recipientHash: string;
  withdrawValue: string;
  secret: string;
  from: string;
  value: string;
  delta: string;
  leafIndex: string;
  siblings: string[];
};

/**
 * The circuit input of `statement`; throws {@link ProofEncodingError} (naming no value) when the path is not
 * {@link TRANSFER_TREE_HEIGHT} siblings long or a value is negative.
 *
 * @example
 * const { proof, publicSignals } = await snarkjs.groth16.fullProve(singleTeleportCircuitInput(statement), wasmPath, zkeyPath);
 */
export function singleTeleportCircuitInput(statement: SingleTeleportStatement): SingleTeleportCircuitInput {
  const { transfer } = statement;
  if (transfer.siblings.length !== TRANSFER_TREE_HEIGHT) {
    throw new ProofEncodingError({
      encoding: "single-teleport circuit input",
      detail: `expected ${TRANSFER_TREE_HEIGHT} siblings, got ${transfer.siblings.length}`,
    });
  }
  const numbers = [statement.root, statement.recipientHash, statement.secret, transfer.value, transfer.leafIndex, ...transfer.siblings];
  if (numbers.some((value) => value < 0n)) throw new ProofEncodingError({ encoding: "single-teleport circuit input", detail: "a value is negative" });
  return {
    transferRoot: statement.root.toString(),
    recipientHash: statement.recipientHash.toString(),
    withdrawValue: transfer.value.toString(),
    secret: statement.secret.toString(),
    from: hexToBigInt(transfer.from).toString(),
    value: transfer.value.toString(),
    delta: "0",
    leafIndex: transfer.leafIndex.toString(),
    siblings: transfer.siblings.map((sibling) => sibling.toString()),
  };
}
