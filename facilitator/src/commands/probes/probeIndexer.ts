/**
 * The `indexer` probe: the zERC20 indexer answers `GET /healthz`. Without it no self-transfer burn can be
 * verified and nothing can be finalized.
 */
import { redactUrl, type FacilitatorConfig } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";

/** Sends `GET <network.indexer_url>/healthz` with a timeout and reports the answer. */
export async function probeIndexer(config: FacilitatorConfig, timeoutMs: number): Promise<CheckFinding[]> {
  const list = new FindingList("indexer");
  const base = config.network.indexer_url;
  // The health route sits under the configured URL, which may carry a path prefix of its own.
  const url = new URL("healthz", base.endsWith("/") ? base : `${base}/`);
  const shown = redactUrl(url.href);
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    await response.body?.cancel();
    if (response.ok) list.ok(`${shown} answers HTTP ${response.status}`);
    else list.fail(`indexer ${shown} answers HTTP ${response.status}, not a healthy 2xx`);
  } catch (error) {
    list.fail(`indexer ${shown} is unreachable: ${describeFailure(error, timeoutMs)}`);
  }
  return list.findings;
}
