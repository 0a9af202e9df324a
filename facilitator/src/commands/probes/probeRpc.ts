/**
 * The `rpc` probe: the RPC answers within a short timeout and serves `network.chain_id`. It also warns about
 * credentials in the URL, which is always printed redacted. The client it opens is handed on to the
 * contract probes, which are meaningless without it.
 */
import { createPublicClient, http, webSocket, type PublicClient } from "viem";

import { assertRpcChainId, describeUrlCredential, findUrlCredentials, redactUrl, type FacilitatorConfig } from "../../config/index.js";
import { ChainIdMismatchError } from "../../config/errors.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";

/** A chain client for the probes and how to release it. */
export type CheckChain = { client: PublicClient; close: () => Promise<void> };

/** What {@link probeRpc} found; `chain` is set only when the RPC answered with the configured chain id. */
export type ProbeRpcReturnType = { findings: CheckFinding[]; chain: CheckChain | undefined; reason: string | undefined };

/** Asks the RPC at `network.rpc_url` for its chain id; `reason` says why dependent probes must be skipped. */
export async function probeRpc(config: FacilitatorConfig, timeoutMs: number): Promise<ProbeRpcReturnType> {
  const list = new FindingList("rpc");
  const url = config.network.rpc_url;
  const shown = redactUrl(url);
  const credentials = findUrlCredentials(url);
  if (credentials.length > 0) {
    const where = credentials.map(describeUrlCredential).join(", ");
    list.warn(`network.rpc_url embeds credentials (${where}); keep them out of the file where the provider allows`);
  }
  const chain = openChain(url, timeoutMs);
  let reported: number;
  try {
    reported = await chain.client.getChainId();
  } catch (error) {
    await chain.close();
    list.fail(`RPC ${shown} is unreachable: ${describeFailure(error, timeoutMs)}`);
    return { findings: list.findings, chain: undefined, reason: "the RPC is unreachable" };
  }
  try {
    assertRpcChainId(config, reported);
  } catch (error) {
    await chain.close();
    if (!(error instanceof ChainIdMismatchError)) throw error;
    list.fail(error.shortMessage);
    return { findings: list.findings, chain: undefined, reason: `the RPC serves chain ${reported}, not network.chain_id` };
  }
  list.ok(`RPC ${shown} answers with chain ${reported} (= network.chain_id)`);
  return { findings: list.findings, chain, reason: undefined };
}

function openChain(url: string, timeoutMs: number): CheckChain {
  if (url.startsWith("ws:") || url.startsWith("wss:")) {
    const transport = webSocket(url, { timeout: timeoutMs, retryCount: 0, reconnect: false, keepAlive: false });
    const client = createPublicClient({ transport });
    const close = async () => {
      // The socket keeps the process alive until closed; a socket that never opened has nothing to close.
      await client.transport
        .getRpcClient()
        .then((socket) => socket.close())
        .catch(() => undefined);
    };
    return { client, close };
  }
  const client = createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0 }) });
  return { client, close: async () => undefined };
}
