/**
 * One sender and one transaction monitor per key, its nonces from the storage whichever adapter it is: the
 * relayer's (permit burns, its queue depth counted for metrics), the minter's (mints and fee distributions)
 * and the treasury's (custodial fee sweeps). The monitors' loops run from `started` to stop.
 */
import type { PrivateKeyAccount } from "viem/accounts";
import { createKeySender, type SerialSender } from "../chain/createKeySender.js";
import type { MonitorEvent, TransactionMonitor } from "../chain/createTransactionMonitor.js";
import { gasPolicyOf } from "../chain/gasPolicyOf.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { Logger } from "../log/createLogger.js";
import { trackRelayerQueue } from "../metrics/instrumentSettlement.js";
import type { ChainWiring } from "./wireChain.js";
import type { StorageWiring } from "./wireStorage.js";

/** What {@link wireKeySenders} reads. */
export type KeySenderParts = {
  config: FacilitatorConfig;
  chain: Pick<ChainWiring, "client" | "chain" | "relayerAccount" | "minterAccount" | "treasuryAccount">;
  storage: StorageWiring["storage"];
  logger: Logger;
  /** Told of every replacement, re-send, gap fill and fee cap (metrics); called only once the monitors run. */
  onMonitorEvent: (event: MonitorEvent) => void;
};

/** The daemon's senders. */
export type KeySenderWiring = {
  relayer: SerialSender;
  /** How many relays wait in the relayer's queue. */
  relayerDepth: () => number;
  /** The minter's own sender, or the relayer's when `SVC_MINTER_PK` is not set. */
  minter: SerialSender;
  treasury: SerialSender;
  /** Each key's monitor once: `start()` after `started`, `stop()` on shutdown. */
  monitors: TransactionMonitor[];
};

/** Builds the senders; nothing runs until the monitors are started. */
export function wireKeySenders({ config, chain, storage, logger, onMonitorEvent }: KeySenderParts): KeySenderWiring {
  const senderOf = (account: PrivateKeyAccount, role: string): SerialSender => {
    const monitor = { role, policy: gasPolicyOf(config.gas), logger, onEvent: onMonitorEvent };
    return createKeySender({ client: chain.client, chain: chain.chain, account, nonces: storage.relayNonces, monitor });
  };
  const treasury = senderOf(chain.treasuryAccount, "treasury");
  const trackedRelayer = trackRelayerQueue(senderOf(chain.relayerAccount, "relayer"));
  const relayer = trackedRelayer.queue;
  // Mints and fee distributions go out from their own key when SVC_MINTER_PK is set, so the burn relayer never mints.
  const minter = chain.minterAccount ? senderOf(chain.minterAccount, "minter") : relayer;
  const monitors = [...new Set([relayer.monitor, minter.monitor, treasury.monitor])];
  return { relayer, relayerDepth: trackedRelayer.depth, minter, treasury, monitors };
}
