/**
 * Builds the `GET /admin/status` body from the daemon's state. The two balance reads are the only I/O, each
 * bounded, and a slow RPC turns a balance into `null` instead of holding the answer up.
 */
import type { Address } from "viem";

import type { BurnAddressPoolStats } from "../challenges/burnAddressPool.js";
import type { TreeFollowerProgress } from "../witnesses/createTreeFollower.js";
import type { AdminStatus, PoseidonStatus, RpcEndpointStatus } from "./adminStatus.js";
import type { SettlementBacklog } from "./settlementBacklog.js";
import { withTimeout } from "../readiness/withTimeout.js";

// A status call is interactive: past this the balance is shown as unknown.
const BALANCE_TIMEOUT_MS = 2_000;

/** What {@link readAdminStatus} reads. */
export type AdminStatusSources = {
  profile: string | undefined;
  chainId: number;
  backlog: () => SettlementBacklog;
  openChallenges: () => number;
  /** The RPC endpoints' health, in the configured order. */
  rpcEndpoints: () => RpcEndpointStatus[];
  poolStats: () => BurnAddressPoolStats | undefined;
  /** The implementation and search path chosen at start. */
  poseidon: PoseidonStatus;
  relayer: { address: Address; queueDepth: () => number };
  treasury: { address: Address };
  /** The separate minter account, when `SVC_MINTER_PK` is set. */
  minter?: { address: Address } | undefined;
  /** Payments minted released alone since start (metrics/createFacilitatorMetrics.ts). */
  releasedAlone?: (() => number) | undefined;
  /** Real leaves sent short of decoys since start (metrics/createFacilitatorMetrics.ts). */
  decoysShort?: (() => number) | undefined;
  /** The transfer-tree follower's progress (`finalize.witnesses = "self"`), once it opened. */
  witnesses?: (() => TreeFollowerProgress | undefined) | undefined;
  balanceOf: (address: Address) => Promise<bigint>;
};

/** Reads the current status. */
export async function readAdminStatus(sources: AdminStatusSources): Promise<AdminStatus> {
  const balance = (address: Address) =>
    withTimeout(sources.balanceOf(address), BALANCE_TIMEOUT_MS).then(
      (wei) => wei.toString(),
      () => null,
    );
  const [relayerWei, treasuryWei, minterWei] = await Promise.all([
    balance(sources.relayer.address),
    balance(sources.treasury.address),
    sources.minter === undefined ? null : balance(sources.minter.address),
  ]);
  const stats = sources.poolStats();
  const witnesses = sources.witnesses?.();
  return {
    profile: sources.profile ?? null,
    chainId: sources.chainId,
    backlog: sources.backlog(),
    openChallenges: sources.openChallenges(),
    rpcEndpoints: sources.rpcEndpoints(),
    stock:
      stats === undefined
        ? null
        : {
            stocked: stats.stocked,
            deriving: stats.deriving,
            derived: stats.derived,
            stopped: stats.stopped,
            floor: stats.floor,
            ceiling: stats.ceiling,
            target: stats.target,
            offersPerSecond: stats.offersPerSecond,
            derivationsPerSecond: stats.derivationsPerSecond,
            lastsSeconds: stats.lastsSeconds,
          },
    poseidon: sources.poseidon,
    relayer: { address: sources.relayer.address, balanceWei: relayerWei, queueDepth: sources.relayer.queueDepth() },
    treasury: { address: sources.treasury.address, balanceWei: treasuryWei },
    ...(sources.minter === undefined ? {} : { minter: { address: sources.minter.address, balanceWei: minterWei } }),
    ...(sources.releasedAlone === undefined
      ? {}
      : {
          finalize: {
            releasedAlone: sources.releasedAlone(),
            ...(sources.decoysShort === undefined ? {} : { decoysShort: sources.decoysShort() }),
          },
        }),
    ...(witnesses === undefined ? {} : { witnesses: witnessStatus(witnesses) }),
  };
}

function witnessStatus(progress: TreeFollowerProgress): NonNullable<AdminStatus["witnesses"]> {
  const behind = progress.provedIndex === undefined || progress.provedIndex < progress.leaves ? 0n : progress.provedIndex - progress.leaves;
  const orNull = (value: bigint | undefined) => (value === undefined ? null : Number(value));
  return {
    leaves: Number(progress.leaves),
    leavesBehind: Number(behind),
    provedIndex: orNull(progress.provedIndex),
    lastCheckedIndex: orNull(progress.lastChecked?.index),
    nextBlock: Number(progress.nextBlock),
    finalBlock: orNull(progress.finalBlock),
    trackedPaths: progress.tracked,
  };
}
