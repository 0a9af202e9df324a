/**
 * Pays the fees of finalized payments, aggregated so a chain observer cannot pair a fee movement with one
 * payment: at most one sweep per `fee.sweep_interval_seconds`, covering every payment finalized since the
 * last one. Custodial mode: the treasury key sends one transfer of the summed fees to `fee.recipient`; the
 * signed transfer and the payments it covers are journaled before it is broadcast, re-broadcast unchanged
 * after a crash, and a covered payment is never part of another sweep, so no fee is swept twice or lost.
 * Split mode: the treasury is the FeeSplitter and the minter key calls `distribute(token)` once for all of
 * them (anyone may; a splitter with nothing left means an earlier distribution already covered them).
 */
import { feeSplitterAbi, zerc20TokenAbi } from "@svc/scheme";
import { encodeFunctionData, parseTransaction, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { SerialSender } from "../chain/createKeySender.js";
import { pollReceipt } from "../chain/pollReceipt.js";
import type { FacilitatorConfig, FeeConfig } from "../config/facilitatorConfigSchema.js";
import type { JournalRecord } from "../journal/journalRecord.js";
import type { Logger } from "../log/createLogger.js";
import type { FeeSweep, SettlementEntry } from "../settlement/settlementBook.js";

/** The sweep interval a production deployment should use: an hour of payments per fee movement. */
export const RECOMMENDED_SWEEP_INTERVAL_SECONDS = 3600;

/** What fee settlement talks to. */
export type SweepFeesContext = {
  client: PublicClient;
  fee: FeeConfig | undefined;
  token: Address;
  treasury: Address;
  /** Sends as the treasury key (custodial sweeps). */
  treasurySender: SerialSender;
  /** Sends as the minter key, the relayer's when none is configured (splitter distributions). */
  minter: SerialSender;
  /** Seconds between two sweeps; 0 sweeps on every pass that has fees to pay. */
  intervalSeconds: number;
  /** When the latest sweep or distribution was journaled (unix seconds), if any. */
  lastSweepAt: () => number | undefined;
  journal: (record: JournalRecord) => Promise<void>;
  logger: Logger;
  now: () => number;
  receiptTimeoutMs?: number;
};

/** `fee.sweep_interval_seconds`, or its default: every pass under profile `local` (quick demos), hourly elsewhere. */
export function sweepIntervalSeconds(config: Pick<FacilitatorConfig, "profile" | "fee">): number {
  return config.fee?.sweep_interval_seconds ?? (config.profile === "local" ? 0 : RECOMMENDED_SWEEP_INTERVAL_SECONDS);
}

/**
 * Whether a new sweep is due at `now`: one interval after the last sweep or, before any, after the oldest
 * payment waiting for one was finalized (so a lone first payment does not get a sweep of its own at once).
 */
export function feeSweepDue(params: { now: number; intervalSeconds: number; lastSweepAt: number | undefined; finalizedAt: readonly number[] }): boolean {
  if (params.finalizedAt.length === 0) return false;
  const since = params.lastSweepAt ?? Math.min(...params.finalizedAt);
  return params.now >= since + params.intervalSeconds;
}

/**
 * Settles what it can of the fees `owing` (finalized entries whose fee has not reached its recipient) and
 * returns the challenge nonces whose fee is now settled; the rest waits for a later pass.
 */
export async function sweepFees(context: SweepFeesContext, owing: readonly SettlementEntry[]): Promise<Hex[]> {
  const settledNonces: Hex[] = [];
  const settle = async (entry: SettlementEntry, amount: bigint, txHash?: Hex) => {
    const challengeNonce = entry.challenge.challengeNonce;
    await context.journal({ type: "fee_settled", challengeNonce, ...(txHash ? { txHash } : {}), amount: amount.toString(), at: context.now() });
    settledNonces.push(challengeNonce);
  };
  const charged: SettlementEntry[] = [];
  for (const entry of owing) {
    if (context.fee === undefined || feeOf(entry) === 0n) await settle(entry, 0n);
    else charged.push(entry);
  }
  if (charged.length === 0 || context.fee === undefined) return settledNonces;
  if (context.fee.mode === "custodial") await sweepCustodial(context, context.fee.recipient, charged, settle);
  else await distribute(context, charged, settle);
  return settledNonces;
}

type Settle = (entry: SettlementEntry, amount: bigint, txHash?: Hex) => Promise<void>;

async function sweepCustodial(context: SweepFeesContext, recipient: Address, charged: SettlementEntry[], settle: Settle): Promise<void> {
  const timeoutMs = context.receiptTimeoutMs ?? 30_000;
  const journaled = new Map<Hex, FeeSweep>();
  for (const entry of charged) if (entry.feeSweep) journaled.set(entry.feeSweep.txHash, entry.feeSweep);
  let open = false;
  // Sweeps that provably moved nothing and never will: their payments go into the next sweep.
  const voided = new Set<Hex>();
  for (const sweep of journaled.values()) {
    const outcome = await followSweep(context, sweep, timeoutMs);
    if (outcome === "landed") {
      for (const entry of charged) if (entry.feeSweep?.txHash === sweep.txHash) await settle(entry, feeOf(entry), sweep.txHash);
    } else if (outcome === "void") {
      context.logger.warn("fee_sweep_void", { tx: sweep.txHash, payments: sweep.challengeNonces.length });
      voided.add(sweep.txHash);
    } else open = true;
  }
  // A new sweep waits until the journaled ones landed, so it never takes the nonce an unlanded one needs.
  if (open) return;
  const uncovered = charged.filter((entry) => entry.feeSweep === undefined || voided.has(entry.feeSweep.txHash));
  if (!due(context, uncovered)) return;
  const amount = uncovered.reduce((sum, entry) => sum + feeOf(entry), 0n);
  const data = encodeFunctionData({ abi: zerc20TokenAbi, functionName: "transfer", args: [recipient, amount] });
  const call = await estimate(context.client, context.treasurySender.address, context.token, data);
  const txHash = await context.treasurySender.send(call, {
    beforeBroadcast: ({ hash, serialized }) =>
      context.journal({
        type: "fee_sweep_batch",
        challengeNonces: uncovered.map((entry) => entry.challenge.challengeNonce),
        txHash: hash,
        rawTransaction: serialized,
        amount: amount.toString(),
        at: context.now(),
      }),
  });
  context.logger.info("fee_sweep_broadcast", { tx: txHash, payments: uncovered.length, amount: amount.toString() });
  // Whichever hash of the sweep's nonce is mined: the treasury's monitor may replace it with a fee bump.
  const receipt = await context.treasurySender.monitor.waitReceipt(txHash, { timeoutMs });
  if (receipt?.status !== "success") return;
  for (const entry of uncovered) await settle(entry, feeOf(entry), receipt.transactionHash);
}

/**
 * Follows a journaled sweep: `landed`; `void` when it reverted or another transaction of the treasury was
 * mined on its nonce (it can never land, so its payments are free for a new sweep); else it is re-broadcast
 * (safe: the transaction carries its nonce, so it lands at most once) and `pending` until it has a receipt.
 */
async function followSweep(context: SweepFeesContext, sweep: FeeSweep, timeoutMs: number): Promise<"landed" | "void" | "pending"> {
  const outcome = (receipt: TransactionReceipt) => (receipt.status === "success" ? "landed" : "void");
  // Any hash the sweep had: a fee-bumped replacement and the ones it replaced share its nonce, one may be mined.
  const anyReceipt = async () => {
    const hashes = new Set<Hex>([sweep.txHash, ...(sweep.earlierTxHashes ?? []), ...context.treasurySender.monitor.hashesOf(sweep.txHash)]);
    const receipts = await Promise.all([...hashes].map((hash) => pollReceipt(context.client, hash, { timeoutMs: 0 })));
    return receipts.find((receipt) => receipt !== undefined);
  };
  const mined = await anyReceipt();
  if (mined) return outcome(mined);
  const { nonce } = parseTransaction(sweep.rawTransaction);
  const used = await context.client.getTransactionCount({ address: context.treasurySender.address, blockTag: "latest" });
  if (nonce !== undefined && used > nonce) {
    // A receipt that appeared after the first look means it landed after all.
    const late = await anyReceipt();
    return late ? outcome(late) : "void";
  }
  await context.client.sendRawTransaction({ serializedTransaction: sweep.rawTransaction }).catch(() => undefined);
  const receipt = await context.treasurySender.monitor.waitReceipt(sweep.txHash, { timeoutMs });
  return receipt ? outcome(receipt) : "pending";
}

async function distribute(context: SweepFeesContext, charged: SettlementEntry[], settle: Settle): Promise<void> {
  if (!due(context, charged)) return;
  const balance = await context.client.readContract({ address: context.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [context.treasury] });
  if (balance === 0n) {
    for (const entry of charged) await settle(entry, 0n);
    return;
  }
  const data = encodeFunctionData({ abi: feeSplitterAbi, functionName: "distribute", args: [context.token] });
  const call = await estimate(context.client, context.minter.address, context.treasury, data);
  const txHash = await context.minter.send(call);
  context.logger.info("fee_distribute_broadcast", { tx: txHash, payments: charged.length });
  const receipt = await context.minter.monitor.waitReceipt(txHash, { timeoutMs: context.receiptTimeoutMs ?? 30_000 });
  if (receipt?.status !== "success") return;
  for (const entry of charged) await settle(entry, feeOf(entry), receipt.transactionHash);
}

function due(context: SweepFeesContext, waiting: readonly SettlementEntry[]): boolean {
  return feeSweepDue({
    now: context.now(),
    intervalSeconds: context.intervalSeconds,
    lastSweepAt: context.lastSweepAt(),
    finalizedAt: waiting.map((entry) => entry.finalizedAt ?? context.now()),
  });
}

// The facilitator's whole fee as priced at issue (the offer's own `fee` is only the payer-charged part).
function feeOf(entry: SettlementEntry): bigint {
  return entry.challenge.quote.fee;
}

async function estimate(client: PublicClient, from: Address, to: Address, data: Hex) {
  const [gas, fees] = await Promise.all([client.estimateGas({ account: from, to, data }), client.estimateFeesPerGas()]);
  return { to, data, gas: (gas * 12n) / 10n, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}
