/**
 * Reads what a chain observer sees of our payments in a block range, straight from anvil's logs: every
 * PermitBurner `BurnExecuted` (a burn and its value) and every verifier `Teleport` (a mint and its
 * value), plus the account that sent each transaction, for the same-sender link the issue names.
 */
import { permitBurnerAbi, type ProtocolVersion, zerc20Protocol } from "@svc/scheme";
import { createPublicClient, http, type Address, type Hash } from "viem";
import type { ObservedEvent } from "./anonymitySets.js";

/** Options of {@link readObservedEvents}. */
export type ReadObservedEventsParameters = {
  rpcUrl: string;
  /** The deployment's version: its `Teleport` event is the one read. */
  protocol: ProtocolVersion;
  permitBurner: Address;
  verifier: Address;
  fromBlock: bigint;
  toBlock: bigint;
};

/** The events in chain order, and who sent the burns and the mints. */
export type ObservedChain = {
  events: ObservedEvent[];
  /** Distinct senders of burn transactions (the relayer of permit burns), lower-case. */
  burnSenders: string[];
  /** Mint transactions whose sender also sent a burn transaction in the range. */
  mintsBySameSender: number;
};

/** Reads burns and mints in `[fromBlock, toBlock]` and the senders of their transactions. */
export async function readObservedEvents(parameters: ReadObservedEventsParameters): Promise<ObservedChain> {
  const client = createPublicClient({ transport: http(parameters.rpcUrl, { batch: true }) });
  const range = { fromBlock: parameters.fromBlock, toBlock: parameters.toBlock };
  const [burns, mints] = await Promise.all([
    client.getContractEvents({ address: parameters.permitBurner, abi: permitBurnerAbi, eventName: "BurnExecuted", ...range }),
    client.getLogs({ address: parameters.verifier, event: zerc20Protocol(parameters.protocol).teleportEvent, ...range }),
  ]);
  const events: ObservedEvent[] = [
    ...burns.map((log) => ({ kind: "burn" as const, value: log.args.value ?? 0n, blockNumber: log.blockNumber, logIndex: log.logIndex })),
    ...mints.map((log) => ({
      kind: "mint" as const,
      value: (log.args as { value?: bigint }).value ?? 0n,
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
    })),
  ];
  const senderOf = async (hash: Hash) => (await client.getTransaction({ hash })).from.toLowerCase();
  const burnSenders = new Set(await Promise.all([...new Set(burns.map((log) => log.transactionHash))].map(senderOf)));
  const mintSenders = await Promise.all([...new Set(mints.map((log) => log.transactionHash))].map(senderOf));
  return {
    events,
    burnSenders: [...burnSenders],
    mintsBySameSender: mintSenders.filter((sender) => burnSenders.has(sender)).length,
  };
}
