/**
 * Pays the fee of a finalized entry. Custodial mode: the treasury key transfers the entry's fee to
 * `fee.recipient`; the signed transfer is journaled before it is broadcast and re-broadcast unchanged after a
 * crash, so a fee is never swept twice. Split mode: the treasury is the FeeSplitter and anyone may call
 * `distribute(token)`; the relayer does, and a splitter with nothing left to distribute means an earlier
 * distribution already covered this entry.
 */
import { feeSplitterAbi, zerc20TokenAbi } from "@svc/scheme";
import { encodeFunctionData, parseEventLogs, type Address, type Hex, type PublicClient } from "viem";
import type { SerialSender } from "../chain/createSerialSender.js";
import type { FeeConfig } from "../config/facilitatorConfigSchema.js";
import type { JournalRecord } from "../journal/journalRecord.js";
import { pollReceipt } from "../chain/pollReceipt.js";
import type { SettlementEntry } from "../settlement/settlementBook.js";

/** What fee settlement talks to. */
export type SettleFeeContext = {
  client: PublicClient;
  fee: FeeConfig | undefined;
  token: Address;
  treasury: Address;
  /** Sends as the treasury key (custodial sweeps). */
  treasurySender: SerialSender;
  /** Sends as the relayer key (splitter distribution). */
  relayer: SerialSender;
  journal: (record: JournalRecord) => Promise<void>;
  now: () => number;
  receiptTimeoutMs?: number;
};

/** `settled` once the fee reached its recipient (or there was none); `pending` to retry on a later pass. */
export async function settleFee(context: SettleFeeContext, entry: SettlementEntry): Promise<"settled" | "pending"> {
  const challengeNonce = entry.challenge.challengeNonce;
  const fee = BigInt(entry.challenge.fee);
  const settled = async (amount: bigint, txHash?: Hex) => {
    await context.journal({ type: "fee_settled", challengeNonce, ...(txHash ? { txHash } : {}), amount: amount.toString(), at: context.now() });
    return "settled" as const;
  };
  if (context.fee === undefined || fee === 0n) return settled(0n);
  const timeoutMs = context.receiptTimeoutMs ?? 30_000;

  if (context.fee.mode === "custodial") {
    if (entry.feeSweep) {
      const { txHash, rawTransaction } = entry.feeSweep;
      // Re-broadcasting the journaled transaction is safe: it carries its nonce, so it lands at most once.
      await context.client.sendRawTransaction({ serializedTransaction: rawTransaction as Hex }).catch(() => undefined);
      const receipt = await pollReceipt(context.client, txHash, { timeoutMs });
      return receipt?.status === "success" ? settled(fee, txHash) : "pending";
    }
    const data = encodeFunctionData({ abi: zerc20TokenAbi, functionName: "transfer", args: [context.fee.recipient, fee] });
    const call = await estimate(context.client, context.treasurySender.address, context.token, data);
    const txHash = await context.treasurySender.send(call, {
      beforeBroadcast: ({ hash, serialized }) =>
        context.journal({ type: "fee_sweep", challengeNonce, txHash: hash, rawTransaction: serialized, amount: fee.toString(), at: context.now() }),
    });
    const receipt = await pollReceipt(context.client, txHash, { timeoutMs });
    return receipt?.status === "success" ? settled(fee, txHash) : "pending";
  }

  const balance = await context.client.readContract({ address: context.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [context.treasury] });
  if (balance === 0n) return settled(0n);
  const data = encodeFunctionData({ abi: feeSplitterAbi, functionName: "distribute", args: [context.token] });
  const call = await estimate(context.client, context.relayer.address, context.treasury, data);
  const txHash = await context.relayer.send(call);
  const receipt = await pollReceipt(context.client, txHash, { timeoutMs });
  if (receipt?.status !== "success") return "pending";
  const [distributed] = parseEventLogs({ abi: feeSplitterAbi, eventName: "Distributed", logs: receipt.logs, strict: true });
  return settled(distributed?.args.feeAmount ?? 0n, txHash);
}

async function estimate(client: PublicClient, from: Address, to: Address, data: Hex) {
  const [gas, fees] = await Promise.all([client.estimateGas({ account: from, to, data }), client.estimateFeesPerGas()]);
  return { to, data, gas: (gas * 12n) / 10n, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}
