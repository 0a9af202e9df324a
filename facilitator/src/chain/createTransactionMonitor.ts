/**
 * Watches every transaction one key broadcast until it is mined, because a node may forget a transaction
 * (a reorg, an eviction, `anvil_dropTransaction`) or leave it underpriced in its pool, and then every later
 * transaction of the key waits behind that nonce. One monitor per key, one loop per monitor:
 *
 * - stuck: the lowest unmined nonce, not mined `replaceAfterMs` after its last broadcast, is signed again with both
 *   EIP-1559 fees raised by 12.5% (nodes require 10%) and at least the current estimate, capped by
 *   `maxFeePerGas`; a bump the cap stops is logged and counted once, and the transaction keeps waiting;
 * - dropped: unknown to the node on two passes in a row while its nonce is not mined, it is broadcast again,
 *   the same bytes while they are still priced right, else re-priced;
 * - gap: a nonce below one we track that nobody here tracks and the node does not hold (its pending count
 *   stops there) is filled, after `replaceAfterMs` of standing still, with a 0-value transfer to the key itself;
 *   at once when the node refused our own transaction on that nonce (a later one went out before the refusal
 *   came back, so nobody else will send it).
 *
 * Every re-signed transaction runs its send's `beforeBroadcast` hook first (a relay journals its replacement
 * before it can land), and the hashes of one nonce stay together, so a receipt wait follows whichever of
 * them was mined. Nothing here logs a raw transaction or a key.
 */
import {
  keccak256,
  parseTransaction,
  TransactionReceiptNotFoundError,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type TransactionSerializableEIP1559,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import type { Logger } from "../log/createLogger.js";
import { relayMayHaveReachedChain } from "./relayReachedChain.js";

/** A fully estimated call, ready to sign. */
export type EstimatedCall = {
  to: Address;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  /** Wei sent along; only the gap filler's self-transfer names it (0). */
  value?: bigint;
};

/** A signed transaction before it is broadcast. */
export type SignedTransaction = { hash: Hex; serialized: Hex };

/** Runs before a signed transaction (first or re-signed) is broadcast, e.g. to journal it. */
export type BeforeBroadcast = (signed: SignedTransaction) => Promise<void>;

/** Why a transaction was broadcast again: the `reason` label of `facilitator_tx_replacements_total`. */
export type ReplacementReason = "stuck" | "dropped" | "gap" | "fee_cap";

/** One state change of a watched nonce, as logged and counted. */
export type MonitorEvent = { role: string; reason: ReplacementReason; nonce: number; oldHash?: Hex | undefined; newHash?: Hex | undefined };

/** When to replace, and the most a replacement may pay. */
export type GasPolicy = {
  /** A transaction not mined this long after its last broadcast is replaced with higher fees. */
  replaceAfterMs: number;
  /** The highest `maxFeePerGas` a replacement signs with (`[gas] max_fee_gwei`); none when unset. */
  maxFeePerGas?: bigint | undefined;
  /** How often the loop looks (default: a third of `replaceAfterMs`, between 200 ms and 5 s). */
  intervalMs?: number | undefined;
  /**
   * How long a gap must stand before it is filled (default `replaceAfterMs`). The key sender sets it to twice
   * that, so where instances share a key the one that sent the missing transaction re-sends it before anyone
   * else signs its nonce.
   */
  gapFillAfterMs?: number | undefined;
};

/** What a watched transaction was: enough to sign it again. */
type Tracked = {
  nonce: number;
  call: EstimatedCall;
  /** Every hash broadcast on this nonce, oldest first. */
  hashes: Hex[];
  /** The hash the node should hold now, and its bytes. */
  current: Hex;
  serialized: Hex;
  /** When it was last (re)broadcast, ms. */
  sentAt: number;
  beforeBroadcast?: BeforeBroadcast | undefined;
  /** Passes in a row the node did not know the current hash. */
  unknownPasses: number;
  capCounted: boolean;
};

/** The pending-aware watcher of one key's transactions. */
export type TransactionMonitor = {
  /** Watches a transaction about to be broadcast on `nonce`; a later one on the same nonce takes its place. */
  track: (entry: { nonce: number; call: EstimatedCall; signed: SignedTransaction; beforeBroadcast?: BeforeBroadcast | undefined }) => void;
  /** Stops watching `nonce` (its broadcast was refused: it never reached a pool); a gap it leaves is filled at once. */
  forget: (nonce: number, hash: Hex) => void;
  /** Watches a transaction signed by an earlier process (a journaled relay or sweep), from now on. */
  adopt: (serialized: Hex, beforeBroadcast?: BeforeBroadcast) => void;
  /** Every hash broadcast on the nonce of `hash` (just `hash` when it is not watched). */
  hashesOf: (hash: Hex) => readonly Hex[];
  /** The lowest nonce above every watched one (0 when none): a fresh sender never signs below it. */
  nextFreeNonce: () => number;
  /** Waits up to `timeoutMs` for a receipt of any hash of the nonce of `hash`; `undefined` when none came. */
  waitReceipt: (hash: Hex, options: { timeoutMs: number; intervalMs?: number | undefined }) => Promise<TransactionReceipt | undefined>;
  /** One pass now (the loop's body): how tests drive it without waiting on the clock. */
  check: () => Promise<void>;
  /** Starts the loop (unref'd: it never keeps the process alive). */
  start: () => void;
  /** Stops the loop and waits for a pass in flight. */
  stop: () => Promise<void>;
  /** Transactions watched now. */
  size: () => number;
};

/** What the monitor of one key talks to. */
export type TransactionMonitorParameters = {
  client: PublicClient;
  chain: Chain;
  account: Pick<PrivateKeyAccount, "address" | "signTransaction">;
  /** The key's role in logs and metrics: `relayer`, `minter` or `treasury`. */
  role: string;
  policy: GasPolicy;
  logger?: Logger | undefined;
  /** Counts each event (`facilitator_tx_replacements_total`). */
  onEvent?: ((event: MonitorEvent) => void) | undefined;
  /** Milliseconds; a test clock may replace it. */
  now?: () => number;
};

// Nodes refuse a replacement that raises either fee by less than 10%; 12.5% clears it after integer rounding.
const BUMP = { numerator: 1125n, denominator: 1000n } as const;
const NODE_MINIMUM_BUMP = { numerator: 110n, denominator: 100n } as const;
// Hash families of mined nonces are kept this many nonces for late receipt waits, then forgotten.
const SETTLED_KEPT = 1024;
// The gap filler's transfer to itself: the intrinsic gas of a plain transfer.
const TRANSFER_GAS = 21_000n;

/** The loop interval `policy` implies. */
export function monitorIntervalMs(policy: GasPolicy): number {
  return policy.intervalMs ?? Math.min(5_000, Math.max(200, Math.floor(policy.replaceAfterMs / 3)));
}

/** Creates the monitor of `account`; call `start()` to run its loop. */
export function createTransactionMonitor(params: TransactionMonitorParameters): TransactionMonitor {
  const { client, chain, account, role, policy, logger } = params;
  const now = params.now ?? Date.now;
  const tracked = new Map<number, Tracked>();
  const families = new Map<Hex, Hex[]>();
  const settled: Hex[][] = [];
  let gapSince: number | undefined;
  // Nonces the node refused from us: a gap at one of them is ours alone to fill, so it waits for nobody.
  const refused = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const event = (change: MonitorEvent, level: "info" | "warn" = "info") => {
    const name = { stuck: "tx_replaced", dropped: "tx_resent", gap: "nonce_gap_filled", fee_cap: "fee_cap_reached" }[change.reason];
    logger?.[level](name, {
      key: role,
      nonce: change.nonce,
      ...(change.oldHash ? { old_tx: change.oldHash } : {}),
      ...(change.newHash ? { new_tx: change.newHash } : {}),
    });
    params.onEvent?.(change);
  };

  const remember = (entry: Tracked, hash: Hex) => {
    if (!entry.hashes.includes(hash)) entry.hashes.push(hash);
    families.set(hash, entry.hashes);
  };

  const track: TransactionMonitor["track"] = ({ nonce, call, signed, beforeBroadcast }) => {
    const entry: Tracked = {
      nonce,
      call,
      hashes: [],
      current: signed.hash,
      serialized: signed.serialized,
      sentAt: now(),
      beforeBroadcast,
      unknownPasses: 0,
      capCounted: false,
    };
    remember(entry, signed.hash);
    tracked.set(nonce, entry);
  };

  const settle = (entry: Tracked) => {
    tracked.delete(entry.nonce);
    settled.push(entry.hashes);
    while (settled.length > SETTLED_KEPT) for (const hash of settled.shift() ?? []) families.delete(hash);
  };

  const sign = (call: EstimatedCall, nonce: number) => {
    const transaction: TransactionSerializableEIP1559 = { type: "eip1559", chainId: chain.id, nonce, ...call };
    return account.signTransaction(transaction);
  };

  const receiptOf = (hash: Hex) =>
    client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });

  /** Signs `call` on the entry's nonce, journals it through the hook, then broadcasts it. */
  const rebroadcast = async (entry: Tracked, call: EstimatedCall, reason: ReplacementReason) => {
    const serialized = await sign(call, entry.nonce);
    const hash = keccak256(serialized);
    const previous = { call: entry.call, current: entry.current, serialized: entry.serialized };
    await entry.beforeBroadcast?.({ hash, serialized });
    // Remembered before the send: if its answer is lost, the transaction may still be out under this hash.
    remember(entry, hash);
    Object.assign(entry, { call, current: hash, serialized, sentAt: now(), unknownPasses: 0 });
    try {
      await client.sendRawTransaction({ serializedTransaction: serialized });
    } catch (error) {
      // Refused (underpriced after all, or the nonce was mined meanwhile): the earlier transaction stays current.
      if (!relayMayHaveReachedChain(error)) Object.assign(entry, previous);
      throw error;
    }
    event({ role, reason, nonce: entry.nonce, oldHash: previous.current, newHash: hash });
  };

  const currentFees = async () => {
    const fees = await client.estimateFeesPerGas();
    return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
  };

  /**
   * The fees of a replacement of `call` (`undefined` when the cap leaves no bump a node would take), and
   * whether the cap held them below what the market asks.
   */
  const bumped = (call: EstimatedCall, estimate: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }) => {
    const raise = (fee: bigint) => (fee * BUMP.numerator + BUMP.denominator - 1n) / BUMP.denominator;
    const priority = max(raise(call.maxPriorityFeePerGas), estimate.maxPriorityFeePerGas);
    const wanted = max(raise(call.maxFeePerGas), estimate.maxFeePerGas, priority);
    if (policy.maxFeePerGas === undefined || wanted <= policy.maxFeePerGas) {
      return { call: { ...call, maxFeePerGas: wanted, maxPriorityFeePerGas: priority }, capped: false };
    }
    const maxFee = policy.maxFeePerGas;
    const minimum = (call.maxFeePerGas * NODE_MINIMUM_BUMP.numerator) / NODE_MINIMUM_BUMP.denominator;
    const minimumPriority = (call.maxPriorityFeePerGas * NODE_MINIMUM_BUMP.numerator) / NODE_MINIMUM_BUMP.denominator;
    if (maxFee < minimum || maxFee < minimumPriority) return { call: undefined, capped: true };
    return { call: { ...call, maxFeePerGas: maxFee, maxPriorityFeePerGas: min(priority, maxFee) }, capped: true };
  };

  const replace = async (entry: Tracked, reason: ReplacementReason) => {
    const estimate = await currentFees();
    const resendAsIs = async () => {
      // The very bytes go out again (and a relay's journaled transaction stays current).
      await client.sendRawTransaction({ serializedTransaction: entry.serialized }).catch(() => undefined);
      entry.sentAt = now();
      entry.unknownPasses = 0;
    };
    if (reason === "dropped" && entry.call.maxFeePerGas >= estimate.maxFeePerGas) {
      await resendAsIs();
      event({ role, reason, nonce: entry.nonce, oldHash: entry.current, newHash: entry.current });
      return;
    }
    const { call, capped } = bumped(entry.call, estimate);
    if (capped && !entry.capCounted) {
      entry.capCounted = true;
      event({ role, reason: "fee_cap", nonce: entry.nonce, oldHash: entry.current }, "warn");
    }
    if (call === undefined) {
      // Nothing higher may be signed: the transaction waits for the base fee to come down (a dropped one is
      // offered again as it is, for a node that takes it then).
      if (reason === "dropped") await resendAsIs();
      entry.sentAt = now();
      return;
    }
    await rebroadcast(entry, call, reason);
  };

  const fillGap = async (nonce: number) => {
    const estimate = await currentFees();
    const capped = policy.maxFeePerGas !== undefined && estimate.maxFeePerGas > policy.maxFeePerGas;
    const call: EstimatedCall = {
      to: account.address,
      data: "0x",
      value: 0n,
      gas: TRANSFER_GAS,
      maxFeePerGas: capped ? (policy.maxFeePerGas ?? 0n) : estimate.maxFeePerGas,
      maxPriorityFeePerGas: min(estimate.maxPriorityFeePerGas, capped ? (policy.maxFeePerGas ?? 0n) : estimate.maxFeePerGas),
    };
    const serialized = await sign(call, nonce);
    const hash = keccak256(serialized);
    track({ nonce, call, signed: { hash, serialized } });
    try {
      await client.sendRawTransaction({ serializedTransaction: serialized });
    } catch (error) {
      if (!relayMayHaveReachedChain(error)) tracked.delete(nonce);
      throw error;
    }
    event({ role, reason: "gap", nonce, newHash: hash });
  };

  const watch = async (entry: Tracked, latest: number) => {
    const known = await client.request({ method: "eth_getTransactionByHash", params: [entry.current] });
    if (known === null) {
      // One pass may race the node's own bookkeeping; two in a row mean it is gone.
      entry.unknownPasses++;
      if (entry.unknownPasses >= 2) await replace(entry, "dropped");
      return;
    }
    entry.unknownPasses = 0;
    // Mined since the nonce count was read: the next pass settles it.
    if (known.blockNumber !== null) return;
    // Only the lowest unmined nonce is bumped: the ones above wait for it, whatever they pay.
    if (entry.nonce === latest && now() - entry.sentAt >= policy.replaceAfterMs) await replace(entry, "stuck");
  };

  const pass = async () => {
    if (tracked.size === 0) {
      gapSince = undefined;
      return;
    }
    const [latest, pending] = await Promise.all([
      client.getTransactionCount({ address: account.address, blockTag: "latest" }),
      client.getTransactionCount({ address: account.address, blockTag: "pending" }),
    ]);
    for (const entry of [...tracked.values()].sort((a, b) => a.nonce - b.nonce)) {
      if (entry.nonce < latest) {
        // Mined, under one of its hashes or (outside this process) another transaction: either way no longer
        // watched here. A reorg that takes it back later is the reorg watch's to answer (finalize/watchReorgs.ts).
        settle(entry);
        logger?.debug("tx_mined", { key: role, nonce: entry.nonce });
        continue;
      }
      // One nonce's trouble (a refused replacement, a journal that is down) must not hold the others back.
      await watch(entry, latest).catch((error: unknown) =>
        logger?.warn("tx_monitor_action_failed", { key: role, nonce: entry.nonce, error: error instanceof Error ? error.name : "unknown" }),
      );
    }
    for (const nonce of refused) if (nonce < latest || tracked.has(nonce)) refused.delete(nonce);
    const highest = Math.max(...tracked.keys());
    let missing: number | undefined;
    for (let nonce = latest; nonce < highest; nonce++) {
      if (!tracked.has(nonce)) {
        missing = nonce;
        break;
      }
    }
    // The node holds nothing executable at the missing nonce when its pending count stops at or below it.
    if (missing === undefined || pending > missing) {
      gapSince = undefined;
      return;
    }
    gapSince ??= now();
    if (refused.has(missing) || now() - gapSince >= (policy.gapFillAfterMs ?? policy.replaceAfterMs)) {
      gapSince = undefined;
      refused.delete(missing);
      await fillGap(missing);
    }
  };

  const check = (): Promise<void> => {
    running ??= pass()
      .catch((error: unknown) => logger?.warn("tx_monitor_pass_failed", { key: role, error: error instanceof Error ? error.name : "unknown" }))
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const interval = monitorIntervalMs(policy);
  const schedule = () => {
    timer = setTimeout(() => {
      void check().then(() => {
        if (timer !== undefined) schedule();
      });
    }, interval);
    timer.unref();
  };

  return {
    track,
    forget: (nonce, hash) => {
      const entry = tracked.get(nonce);
      if (entry?.current !== hash) return;
      tracked.delete(nonce);
      refused.add(nonce);
    },
    adopt: (serialized, beforeBroadcast) => {
      const transaction = parseTransaction(serialized);
      if (transaction.type !== "eip1559" || transaction.nonce === undefined || transaction.to == null) return;
      const call: EstimatedCall = {
        to: transaction.to,
        data: transaction.data ?? "0x",
        gas: transaction.gas ?? TRANSFER_GAS,
        maxFeePerGas: transaction.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: transaction.maxPriorityFeePerGas ?? 0n,
        ...(transaction.value ? { value: transaction.value } : {}),
      };
      const hash = keccak256(serialized);
      const existing = tracked.get(transaction.nonce);
      if (existing?.hashes.includes(hash)) return;
      track({ nonce: transaction.nonce, call, signed: { hash, serialized }, beforeBroadcast });
    },
    hashesOf: (hash) => families.get(hash) ?? [hash],
    nextFreeNonce: () => (tracked.size === 0 ? 0 : Math.max(...tracked.keys()) + 1),
    waitReceipt: async (hash, options) => {
      const giveUpAt = now() + options.timeoutMs;
      const intervalMs = options.intervalMs ?? 100;
      for (;;) {
        const hashes = families.get(hash) ?? [hash];
        const receipts = await Promise.all([...hashes].reverse().map(receiptOf));
        const receipt = receipts.find((found) => found !== undefined);
        if (receipt) return receipt;
        if (now() + intervalMs > giveUpAt) return undefined;
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
    check,
    start: () => {
      if (timer === undefined) schedule();
    },
    stop: async () => {
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
    size: () => tracked.size,
  };
}

// bigint has no Math.max or Math.min.
function max(first: bigint, ...rest: bigint[]): bigint {
  let highest = first;
  for (const value of rest) if (value > highest) highest = value;
  return highest;
}

function min(a: bigint, b: bigint): bigint {
  if (b < a) return b;
  return a;
}
