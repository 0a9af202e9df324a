/**
 * Payment history, when the environment switches it on. Opened before the journal is restored, so a bad
 * history or partial proof configuration stops startup early; a large history is folded once the daemon
 * listens, so startup time does not grow with it.
 */
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { Environment } from "../config/parseSecrets.js";
import { type HistoryOptions, noHistory, type OpenedHistory, openHistory } from "../history/openHistory.js";
import type { HistoryRecorder } from "../history/record/historyRecorder.js";
import type { Logger } from "../log/createLogger.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import type { ChainWiring } from "./wireChain.js";

/** What {@link wireHistory} reads. */
export type HistoryParts = {
  config: FacilitatorConfig;
  env: Environment;
  /** Its treasury is recorded as provider-side evidence. */
  chain: Pick<ChainWiring, "deployment">;
  storage: FacilitatorStorage;
  logger: Logger;
  options: HistoryOptions | undefined;
};

/** History, or `undefined` when the environment leaves it off (`history.close` closes it). */
export type HistoryWiring = {
  history: OpenedHistory | undefined;
  /** What settlement and the finalize loop record into: history's, or `noHistory`. */
  recorder: HistoryRecorder;
  /** Called once the daemon listens: a history folded in the background starts then. */
  markListening: () => void;
};

/** Opens history from the environment. */
export async function wireHistory({ config, env, chain, storage, logger, options }: HistoryParts): Promise<HistoryWiring> {
  let markListening: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => {
    markListening = resolve;
  });
  const history = await openHistory({
    env,
    recipient: chain.deployment.treasury,
    logger,
    store: storage.history,
    loadAfter: listening,
    retentionSeconds: config.history.retention_days === undefined ? undefined : config.history.retention_days * 86_400,
    options,
  });
  return { history, recorder: history?.recorder ?? noHistory, markListening };
}
