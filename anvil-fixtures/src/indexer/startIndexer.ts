/**
 * Runs the fixture indexer: follows the token's transfers, proves new roots promptly (the root job), and
 * serves the indexer HTTP API on loopback, all under the deployment's protocol version.
 */
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion, zerc20Protocol } from "@svc/scheme";
import { createPublicClient, createWalletClient, defineChain, http, type Address, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { listen, type Listening } from "../http/listen.js";
import { createIndexerApp } from "./indexerApp.js";
import { proveNextRoot } from "./proveNextRoot.js";
import { syncTransferLog } from "./syncTransferLog.js";
import { TransferLog } from "./transferLog.js";

/** Where and what to index. */
export type StartIndexerOptions = {
  rpcUrl: string;
  chainId: number;
  token: Address;
  verifier: Address;
  /** The version the token and verifier implement (leaf and hash chain formulas, API); default `zerc20-v2`. */
  protocol?: ProtocolVersion;
  /** Key that sends `reserveHashChain` / `proveTransferRoot` (allow-listed on a v2 verifier). */
  rootProverKey: Hex;
  fixtureProverKey: Hex;
  host?: string;
  port?: number;
  /** How often to read new logs (default 200 ms). */
  syncIntervalMs?: number;
  /** How often the root job runs (default 1000 ms); 0 turns it off for tests that drive it by hand. */
  rootIntervalMs?: number;
  /** Receives root-job failures; they never stop the indexer. */
  onError?: (error: unknown) => void;
};

/** A running indexer. */
export type RunningIndexer = Listening & {
  /** Syncs now and proves a root over everything synced; resolves to the proved index, if any. */
  proveNow: () => Promise<number | undefined>;
  /** The current transfer log (replaced after a reorg). */
  log: () => TransferLog;
};

/** Starts the indexer; `close()` stops its loops and its server. */
export async function startIndexer(options: StartIndexerOptions): Promise<RunningIndexer> {
  const chain = defineChain({
    id: options.chainId,
    name: "local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const client: PublicClient = createPublicClient({ chain, transport: http(options.rpcUrl), pollingInterval: 50 });
  const wallet = createWalletClient({ chain, transport: http(options.rpcUrl), account: privateKeyToAccount(options.rootProverKey) });
  const deployment = { token: options.token, verifier: options.verifier };
  const protocol = zerc20Protocol(options.protocol ?? DEFAULT_PROTOCOL_VERSION);
  let log = new TransferLog(protocol);
  let syncing: Promise<TransferLog> | undefined;

  // One sync at a time; a chain that lost what we indexed (revert, reorg) restarts the log from block 0.
  const sync = (): Promise<TransferLog> => {
    syncing ??= (async () => {
      try {
        if (!(await syncTransferLog(client, deployment, log))) {
          log = new TransferLog(protocol);
          await syncTransferLog(client, deployment, log);
        }
        return log;
      } finally {
        syncing = undefined;
      }
    })();
    return syncing;
  };

  // A sync already under way may have read the chain before the caller's latest transfer: wait for it and
  // sync again, so a root proved now covers every transfer mined before the call.
  const syncFromNow = async (): Promise<TransferLog> => {
    await syncing?.catch(() => undefined);
    return sync();
  };

  let proving: Promise<number | undefined> | undefined;
  const proveNow = (): Promise<number | undefined> => {
    proving ??= proveNextRoot({ client, wallet, deployment, protocol, fixtureProverKey: options.fixtureProverKey, sync: syncFromNow })
      .then((result) => result?.provedIndex)
      .finally(() => {
        proving = undefined;
      });
    return proving;
  };

  const report = options.onError ?? (() => undefined);
  const timers: NodeJS.Timeout[] = [];
  const every = (intervalMs: number, task: () => Promise<unknown>) => {
    const timer = setInterval(() => task().catch(report), intervalMs);
    timer.unref();
    timers.push(timer);
  };

  await sync();
  every(options.syncIntervalMs ?? 200, sync);
  const rootIntervalMs = options.rootIntervalMs ?? 1000;
  if (rootIntervalMs > 0) every(rootIntervalMs, proveNow);

  const app = createIndexerApp(
    {
      label: "fixture",
      chainId: options.chainId,
      token: options.token,
      verifier: options.verifier,
      protocol,
      log: () => log,
    },
    report,
  );
  const stopLoops = () => {
    for (const timer of timers) clearInterval(timer);
  };
  let server: Listening;
  try {
    server = await listen(app, { host: options.host, port: options.port });
  } catch (error) {
    // The loops already run against the chain; a caller that gets no indexer back could never stop them.
    stopLoops();
    throw error;
  }
  return {
    ...server,
    proveNow,
    log: () => log,
    close: async () => {
      stopLoops();
      await Promise.allSettled([syncing, proving]);
      await server.close();
    },
  };
}
