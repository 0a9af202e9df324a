/**
 * One pass over one accepted entry: re-verify the burn on-chain, find its transfers by scanning the token's
 * transfers over a block range on the facilitator's own RPC (createTransferScanner.ts), wait for a proved
 * root covering them, fetch the Merkle paths from the indexer (batched per pass and mixed with decoy leaves
 * of other addresses by createFinalizePrefetch.ts, so that no indexer request singles out the burn address),
 * obtain the proof through the prover port, and submit the proof-gated mint to the treasury with the minter key (the relayer's when none
 * is set). A prover that refuses the payment's witness (the circuit's constraints fail) answers for that payment
 * alone: it waits and is retried up to `WITNESS_REJECTION_LIMIT` passes, then fails as `witness_rejected`; the
 * pass goes on with the others.
 * Idempotent: a mint that already landed is found through `totalTeleported(R)` and the version's mint event,
 * and never submitted again (the verifier would mint nothing more anyway: it mints only the difference).
 */
import { addressToRecipient, type GeneralRecipient, type ProtocolVersion, zerc20Protocol, zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import {
  encodeFunctionData,
  hexToBigInt,
  isAddressEqual,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import type { BurnSecret } from "../challenges/challengeRecord.js";
import type { SerialSender } from "../chain/createKeySender.js";
import type { SettlementEntry } from "../settlement/settlementBook.js";
import {
  FINALIZE_FAILED_REASON,
  FINALIZE_WAITING_REASON,
  type FinalizeFailedReason,
  type FinalizeWaitingReason,
  WITNESS_REJECTION_LIMIT,
} from "./finalizeReasons.js";
import type { RootWait } from "./createFinalizePrefetch.js";
import { findTeleportMint } from "./findTeleportMint.js";
import { teleportRevertReason } from "./teleportRevertReason.js";
import type { TransferScanner } from "./createTransferScanner.js";
import { FalseWithdrawStatementError, IndexerRequestError } from "./errors.js";
import type { IndexerClient } from "./indexerClient.js";
import type { ProverPort, WithdrawProofInputs } from "./proverPort.js";
import { ProverUnsupportedError, ProverWitnessRejectedError } from "./provers/errors.js";
import type { WitnessRejections } from "./witnessRejections.js";

/** What a finalize pass talks to. */
export type FinalizeContext = {
  client: PublicClient;
  /** Sends the mint: the minter key's sender when `SVC_MINTER_PK` is set, else the relayer's. */
  relayer: SerialSender;
  prover: ProverPort;
  indexer: IndexerClient;
  /** Finds a burn address's transfers on the chain, by block range. */
  transfers: TransferScanner;
  deployment: { chainId: number; token: Address; verifier: Address; treasury: Address };
  /** The burn secret of a challenge (from memory, or re-derived off the request path under the challenge's version). */
  burnSecret: (challenge: { challengeNonce: Hex; protocol: ProtocolVersion }) => Promise<BurnSecret>;
  /** How long to wait for the mint's receipt (default 60 s). */
  mintReceiptTimeoutMs?: number;
  /** Lets a payment that waits for a root skip passes until one is proved (createFinalizePrefetch.ts). */
  rootWait?: RootWait;
  /** The pass's proved index (createFinalizePrefetch.ts); without it the verifier is read for each payment. */
  provedIndex?: () => Promise<bigint>;
  /** How often the prover refused each payment's witness; without it the first refusal fails the payment. */
  witnessRejections?: WitnessRejections;
};

/** What became of the entry in this pass; `detail` is a sentence for the log, never journaled. */
export type FinalizeOutcome =
  | { kind: "finalized"; mintTxHash: Hex; minted: bigint }
  | { kind: "failed"; reason: FinalizeFailedReason; detail?: string }
  | { kind: "waiting"; reason: FinalizeWaitingReason; detail?: string };

/** Runs the finalize steps for `entry`; throws only on infrastructure failures (RPC, indexer, prover). */
export async function finalizeEntry(context: FinalizeContext, entry: SettlementEntry): Promise<FinalizeOutcome> {
  const { client, deployment } = context;
  const payTo = entry.challenge.payTo;
  const { amount } = entry.challenge;
  if (context.rootWait?.unchanged(entry.challenge.challengeNonce)) {
    return { kind: "waiting", reason: FINALIZE_WAITING_REASON.rootNotProved, detail: "no root proved since the last pass" };
  }

  // Whether a vanished burn can still return is the reorg watch's to judge (watchReorgs.ts): here it only waits.
  if (entry.burnMissingSince !== undefined) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.burnReorged };
  const evidence = await burnEvidence(client, entry, deployment.token);
  if (evidence) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.burnReorged, detail: evidence };

  // Under the version the burn address was derived with, whatever the daemon runs now.
  const protocol = zerc20Protocol(entry.challenge.protocol);
  const burn = await context.burnSecret(entry.challenge);
  if (!isAddressEqual(burn.burnAddress, payTo)) {
    return { kind: "failed", reason: FINALIZE_FAILED_REASON.burnAddressMismatch, detail: "the seed does not open this burn address" };
  }
  const recipient: GeneralRecipient = { chainId: BigInt(deployment.chainId), recipient: addressToRecipient(deployment.treasury), tweak: burn.tweak };
  const verifier = { address: deployment.verifier, abi: zerc20VerifierAbi } as const;

  const [{ transfers }, alreadyMinted, provedIndex] = await Promise.all([
    context.transfers.transfersTo(entry),
    client.readContract({ ...verifier, functionName: "totalTeleported", args: [hexToBigInt(burn.recipientHash)] }),
    context.provedIndex ? context.provedIndex() : client.readContract({ ...verifier, functionName: "latestProvedIndex" }),
  ]);
  const total = transfers.reduce((sum, transfer) => sum + transfer.value, 0n);
  if (total < amount) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.burnNotIndexed };
  if (alreadyMinted >= total) {
    const mintTxHash = await findTeleportMint({ client, protocol, verifier: deployment.verifier, recipient, fromBlock: BigInt(entry.burnBlockNumber) });
    return mintTxHash ? { kind: "finalized", mintTxHash, minted: 0n } : { kind: "waiting", reason: FINALIZE_WAITING_REASON.mintNotFound };
  }
  const highest = transfers.reduce((max, transfer) => (transfer.event_index > max ? transfer.event_index : max), 0n);
  if (highest >= provedIndex) {
    context.rootWait?.waiting(entry.challenge.challengeNonce, provedIndex);
    return { kind: "waiting", reason: FINALIZE_WAITING_REASON.rootNotProved };
  }

  const [answered, provedRoot] = await Promise.all([
    context.indexer.proofs(
      provedIndex,
      transfers.map((transfer) => transfer.event_index),
    ),
    client.readContract({ ...verifier, functionName: "provedTransferRoots", args: [provedIndex] }),
  ]);
  // Decoys' paths, if the answer carries any, are dropped; the burn address's own follow its transfers' order.
  const paths = transfers.flatMap((transfer) => answered.filter((path) => path.leaf_index === transfer.event_index).slice(0, 1));
  if (paths.length !== transfers.length) throw new IndexerRequestError({ path: "/proofs", cause: new Error("the answer lacks a requested leaf") });
  if (paths.some((path) => path.root !== provedRoot)) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.rootMismatch };
  const inputs: WithdrawProofInputs = {
    protocol: protocol.version,
    root: provedRoot,
    rootIndex: provedIndex,
    recipient,
    recipientHash: burn.recipientHash,
    burnAddress: burn.burnAddress,
    secret: burn.secret,
    transfers: paths.flatMap((path, index) => {
      const transfer = transfers[index];
      return transfer ? [{ leafIndex: path.leaf_index, from: transfer.from, value: transfer.value, siblings: path.siblings }] : [];
    }),
    value: total,
  };
  const single = transfers.length === 1;
  let proof: Hex;
  try {
    proof = single ? await context.prover.proveSingle(inputs) : await context.prover.proveBatch(inputs);
  } catch (error) {
    const refusal = proverRefusal(context, entry.challenge.challengeNonce, error);
    if (refusal === undefined) throw error;
    return refusal;
  }
  context.witnessRejections?.clear(entry.challenge.challengeNonce);
  const call = { abi: zerc20VerifierAbi, functionName: single ? "singleTeleport" : "teleport", args: [false, provedIndex, recipient, proof] } as const;
  const data = encodeFunctionData(call);
  let gas: bigint;
  let fees: Awaited<ReturnType<PublicClient["estimateFeesPerGas"]>>;
  try {
    // With the version's ABI, so a revert decodes into the protocol's error (or v1's pause string).
    [gas, fees] = await Promise.all([
      client.estimateContractGas({ ...call, abi: protocol.verifierAbi, address: deployment.verifier, account: context.relayer.address }),
      client.estimateFeesPerGas(),
    ]);
  } catch (error) {
    const refused = teleportRevertReason(error);
    if (refused === undefined) throw error;
    const detail = `the verifier reverts with ${refused.revert}`;
    return refused.kind === "failed" ? { kind: "failed", reason: refused.reason, detail } : { kind: "waiting", reason: refused.reason, detail };
  }
  const mintTxHash = await context.relayer.send({
    to: deployment.verifier,
    data,
    gas: (gas * 12n) / 10n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  // Whichever hash of the mint's nonce is mined: the minter's monitor may replace a stuck mint with a fee bump.
  const receipt = await context.relayer.monitor.waitReceipt(mintTxHash, { timeoutMs: context.mintReceiptTimeoutMs ?? 60_000 });
  if (!receipt) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.mintPending, detail: `mint ${mintTxHash}` };
  if (receipt.status !== "success") return { kind: "waiting", reason: FINALIZE_WAITING_REASON.mintReverted, detail: `mint ${receipt.transactionHash}` };
  return { kind: "finalized", mintTxHash: receipt.transactionHash, minted: total - alreadyMinted };
}

/**
 * The outcome of a prover that refused this payment (not the prover's own trouble, which throws on): its
 * witness refused by the circuit (retried, then failed), or a proof this prover does not make (waiting).
 */
function proverRefusal(context: FinalizeContext, challengeNonce: Hex, error: unknown): FinalizeOutcome | undefined {
  if (error instanceof ProverUnsupportedError) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.proofUnsupported, detail: error.shortMessage };
  if (!(error instanceof ProverWitnessRejectedError) && !(error instanceof FalseWithdrawStatementError)) return undefined;
  const refused = context.witnessRejections?.refused(challengeNonce) ?? WITNESS_REJECTION_LIMIT;
  const detail = `${error.shortMessage.replace(/\.$/, "")}; refused on ${refused} of at most ${WITNESS_REJECTION_LIMIT} passes`;
  if (refused < WITNESS_REJECTION_LIMIT) return { kind: "waiting", reason: FINALIZE_WAITING_REASON.witnessRejected, detail };
  context.witnessRejections?.clear(challengeNonce);
  return { kind: "failed", reason: FINALIZE_FAILED_REASON.witnessRejected, detail };
}

/** `undefined` when the burn is still on-chain as accepted; otherwise how it is gone (the `burn_reorged` detail). */
async function burnEvidence(client: PublicClient, entry: SettlementEntry, token: Address): Promise<string | undefined> {
  const receipt = await client.getTransactionReceipt({ hash: entry.burnTxHash }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error;
  });
  if (!receipt) return "the burn transaction is no longer on-chain";
  if (receipt.status !== "success") return "the burn transaction no longer succeeds";
  const covered = parseEventLogs({ abi: zerc20TokenAbi, eventName: "IndexedTransfer", logs: receipt.logs, strict: true }).some(
    (log) => isAddressEqual(log.address, token) && isAddressEqual(log.args.to, entry.challenge.payTo) && log.args.value >= entry.challenge.amount,
  );
  return covered ? undefined : "the burn no longer transfers the amount";
}
