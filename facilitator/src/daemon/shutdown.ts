/**
 * The daemon's stop, in the reverse order of its start: stop accepting (in-process calls, then the port),
 * wait up to `daemon.shutdown_grace_ms` for requests, settles and a finalize pass in flight, stop the key
 * monitors, then close what was opened: the prover, the burn-address workers, history, the storage, the chain
 * clients and last the journal lock.
 */
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { ProverAdapter } from "../finalize/provers/proverAdapter.js";
import type { JournalLock } from "../journal/journalLock.js";
import type { Logger } from "../log/createLogger.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import type { ChainWiring } from "./wireChain.js";
import type { ChallengeWiring } from "./wireChallenges.js";
import type { FinalizeWiring } from "./wireFinalize.js";
import type { HistoryWiring } from "./wireHistory.js";
import type { HttpWiring } from "./wireHttp.js";
import type { KeySenderWiring } from "./wireKeySenders.js";
import type { SettlementWiring } from "./wireSettlement.js";

/** What a stop waits for and closes. */
export type ShutdownParts = {
  config: Pick<FacilitatorConfig, "daemon">;
  http: HttpWiring;
  settlement: SettlementWiring["settlement"];
  finalize: FinalizeWiring;
  senders: Pick<KeySenderWiring, "monitors">;
  prover: Pick<ProverAdapter, "close"> | undefined;
  challenges: Pick<ChallengeWiring, "close">;
  history: Pick<HistoryWiring, "history">;
  storage: Pick<FacilitatorStorage, "close">;
  chain: Pick<ChainWiring, "close">;
  lock: Pick<JournalLock, "release"> | undefined;
  logger: Logger;
};

/** The daemon's `stop`: the first call runs the sequence, every later call returns the same promise. */
export function createStop(parts: ShutdownParts): () => Promise<void> {
  const { http, logger } = parts;
  const graceMs = parts.config.daemon.shutdown_grace_ms;
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      logger.info("stopping", { grace_ms: graceMs });
      const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      http.inProcess.close();
      await http.listening.close(graceMs);
      await Promise.race([Promise.allSettled([...parts.settlement.inflight(), ...http.inProcess.inflight(), parts.finalize.loop.stop()]), grace]);
      await Promise.all(parts.senders.monitors.map((monitor) => monitor.stop()));
      // A proof still running after the grace is abandoned: its program is killed, its request aborted.
      await parts.prover?.close();
      await parts.challenges.close();
      await parts.history.history?.close();
      await parts.storage.close();
      await parts.chain.close();
      await parts.lock?.release();
      logger.info("stopped");
    })();
    return stopping;
  };
}
