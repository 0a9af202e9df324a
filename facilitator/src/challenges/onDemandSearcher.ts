/**
 * One burn-address worker thread for rare searches (re-deriving a burn secret after a restart): started when
 * a search needs it, stopped once it has been idle for `idleMs`, since a live thread holds tens of MiB. A
 * thread that died is replaced by the next search instead of failing every later one.
 */
import type { BurnAddressWorker } from "./burnAddressWorker.js";

/** A searcher whose thread comes and goes. */
export type OnDemandSearcher = {
  search: BurnAddressWorker["search"];
  /** Whether a thread is alive now. */
  readonly running: boolean;
  /** Stops the thread, if any; later searches start a new one. */
  close: () => Promise<void>;
};

/** Creates the searcher; `start` makes a new thread. */
export function createOnDemandSearcher(params: { start: () => BurnAddressWorker; idleMs: number }): OnDemandSearcher {
  let worker: BurnAddressWorker | undefined;
  let idle: NodeJS.Timeout | undefined;

  const stopWhenIdle = (current: BurnAddressWorker) => {
    if (current.pending > 0 || worker !== current) return;
    idle = setTimeout(() => {
      if (worker !== current || current.pending > 0) return;
      worker = undefined;
      void current.terminate();
    }, params.idleMs);
    idle.unref();
  };

  return {
    search: async (inputs) => {
      clearTimeout(idle);
      if (worker === undefined || !worker.alive) worker = params.start();
      const current = worker;
      try {
        return await current.search(inputs);
      } finally {
        stopWhenIdle(current);
      }
    },
    get running() {
      return worker?.alive === true;
    },
    close: async () => {
      clearTimeout(idle);
      const current = worker;
      worker = undefined;
      await current?.terminate();
    },
  };
}
