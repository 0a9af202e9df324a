/**
 * Reads what a chain observer sees of our payments in a block range, straight from the chain's logs: every
 * PermitBurner `BurnExecuted` (a burn and its value), every verifier `Teleport` (a mint and its value), every
 * token `IndexedTransfer` (the leaves an indexer serves, with their sender), the block time of each, and the
 * account that sent each burn and mint transaction, for the same-sender link.
 */
import { permitBurnerAbi, type ProtocolVersion, zerc20Protocol, zerc20TokenAbiV1 } from "@svc/scheme";
import { createPublicClient, http, type Address, type Hash } from "viem";
import type { ObservedEvent } from "./anonymitySets.js";

/** Options of {@link readObservedChain}. */
export type ReadObservedChainParameters = {
  rpcUrl: string;
  /** The deployment's version: its `Teleport` event is the one read. */
  protocol: ProtocolVersion;
  token: Address;
  permitBurner: Address;
  verifier: Address;
  fromBlock: bigint;
  toBlock: bigint;
  /** Where the leaves start (default `fromBlock`): a decoy may be any earlier leaf, so the deployment's block. */
  leavesFromBlock?: bigint | undefined;
};

/** A burn or a mint as the observer sees it: the public event plus its block time and transaction. */
export type TimedEvent = ObservedEvent & {
  /** Block timestamp, unix seconds. */
  at: number;
  transactionHash: Hash;
};

/** One `IndexedTransfer`: a leaf of the transfer tree. */
export type ObservedLeaf = { index: bigint; from: Address; to: Address; value: bigint; transactionHash: Hash };

/** The events in chain order, and who sent the burns and the mints. */
export type ObservedChain = {
  events: TimedEvent[];
  /** Every leaf appended from `leavesFromBlock` to the end of the range, by leaf index. */
  leaves: Map<bigint, ObservedLeaf>;
  /** Distinct senders of burn transactions (the relayer of permit burns), lower-case. */
  burnSenders: string[];
  /** Mint transactions whose sender also sent a burn transaction in the range. */
  mintsBySameSender: number;
};

/** Reads burns, mints and leaves in `[fromBlock, toBlock]`, their block times, and the senders of the burns and mints. */
export async function readObservedChain(parameters: ReadObservedChainParameters): Promise<ObservedChain> {
  const client = createPublicClient({ transport: http(parameters.rpcUrl, { batch: true }) });
  const range = { fromBlock: parameters.fromBlock, toBlock: parameters.toBlock };
  const [burns, mints, transfers] = await Promise.all([
    client.getContractEvents({ address: parameters.permitBurner, abi: permitBurnerAbi, eventName: "BurnExecuted", ...range }),
    client.getLogs({ address: parameters.verifier, event: zerc20Protocol(parameters.protocol).teleportEvent, ...range }),
    client.getContractEvents({
      address: parameters.token,
      abi: zerc20TokenAbiV1,
      eventName: "IndexedTransfer",
      fromBlock: parameters.leavesFromBlock ?? parameters.fromBlock,
      toBlock: parameters.toBlock,
      strict: true,
    }),
  ]);
  const blockTimes = new Map<bigint, number>();
  await Promise.all(
    [...new Set([...burns, ...mints].map((log) => log.blockNumber))].map(async (blockNumber) => {
      blockTimes.set(blockNumber, Number((await client.getBlock({ blockNumber })).timestamp));
    }),
  );
  const timed = (kind: "burn" | "mint", log: { blockNumber: bigint; logIndex: number; transactionHash: Hash }, value: bigint | undefined): TimedEvent => ({
    kind,
    value: value ?? 0n,
    blockNumber: log.blockNumber,
    logIndex: log.logIndex,
    at: blockTimes.get(log.blockNumber) ?? 0,
    transactionHash: log.transactionHash,
  });
  const events = [
    ...burns.map((log) => timed("burn", log, log.args.value)),
    ...mints.map((log) => timed("mint", log, (log.args as { value?: bigint }).value)),
  ].sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
  const leaves = new Map(
    transfers.map((log) => [
      log.args.index,
      { index: log.args.index, from: log.args.from, to: log.args.to, value: log.args.value, transactionHash: log.transactionHash },
    ]),
  );
  const senderOf = async (hash: Hash) => (await client.getTransaction({ hash })).from.toLowerCase();
  const burnSenders = new Set(await Promise.all([...new Set(burns.map((log) => log.transactionHash))].map(senderOf)));
  const mintSenders = await Promise.all([...new Set(mints.map((log) => log.transactionHash))].map(senderOf));
  return {
    events,
    leaves,
    burnSenders: [...burnSenders],
    mintsBySameSender: mintSenders.filter((sender) => burnSenders.has(sender)).length,
  };
}
