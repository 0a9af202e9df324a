/**
 * The `rpc` probe: every RPC endpoint answers within a short timeout and serves `network.chain_id`. It also warns
 * about credentials in a URL, which is always printed redacted. The client it opens on the first endpoint that
 * answered is handed on to the contract probes, which are meaningless without it.
 */
import { createPublicClient, http, webSocket, type PublicClient } from "viem";

import { assertRpcChainId, describeUrlCredential, findUrlCredentials, redactUrl, rpcUrlKey, type FacilitatorConfig } from "../../config/index.js";
import { ChainIdMismatchError } from "../../config/errors.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";
import { describeFailure } from "./describeFailure.js";

/** A chain client for the probes and how to release it. */
export type CheckChain = { client: PublicClient; close: () => Promise<void> };

/** What {@link probeRpc} found; `chain` is set only when the RPC answered with the configured chain id. */
export type ProbeRpcReturnType = { findings: CheckFinding[]; chain: CheckChain | undefined; reason: string | undefined };

/**
 * Asks every RPC endpoint (`network.rpc_url`, or each of `network.rpc_urls`) for its chain id, one line each:
 * which answered with `network.chain_id`, which did not answer, which serves another chain (each a problem,
 * named by its key, its URL shown redacted). The contract probes run on the first endpoint that answered right;
 * `reason` says why they must be skipped when none did.
 */
export async function probeRpc(config: FacilitatorConfig, timeoutMs: number): Promise<ProbeRpcReturnType> {
  const list = new FindingList("rpc");
  const several = config.network.rpc_key === "rpc_urls";
  const probes = await Promise.all(config.network.rpc_urls.map((url, index) => probeEndpoint(config, url, index, timeoutMs)));
  let chain: CheckChain | undefined;
  probes.forEach((probe, index) => {
    const url = config.network.rpc_urls[index] ?? "";
    const key = rpcUrlKey(config.network, index);
    const shown = several ? `${key} ${redactUrl(url)}` : redactUrl(url);
    const credentials = findUrlCredentials(url);
    if (credentials.length > 0) {
      const where = credentials.map(describeUrlCredential).join(", ");
      list.warn(`${key} embeds credentials (${where}); keep them out of the file where the provider allows`);
    }
    if (probe.kind === "unreachable") list.fail(`RPC ${shown} is unreachable: ${probe.failure}`);
    else if (probe.kind === "mismatch") list.fail(probe.message);
    else list.ok(`RPC ${shown} answers with chain ${probe.reported} (= network.chain_id)`);
  });
  for (const probe of probes) {
    if (probe.kind !== "answered") continue;
    if (chain === undefined) chain = probe.chain;
    else await probe.chain.close();
  }
  if (chain !== undefined) return { findings: list.findings, chain, reason: undefined };
  const reported = probes.find((probe) => probe.kind === "mismatch");
  const reason = reported?.kind === "mismatch" ? `the RPC serves chain ${reported.reported}, not network.chain_id` : "the RPC is unreachable";
  return { findings: list.findings, chain: undefined, reason };
}

type EndpointProbe =
  | { kind: "answered"; reported: number; chain: CheckChain }
  | { kind: "unreachable"; failure: string }
  | { kind: "mismatch"; reported: number; message: string };

async function probeEndpoint(config: FacilitatorConfig, url: string, index: number, timeoutMs: number): Promise<EndpointProbe> {
  const chain = openChain(url, timeoutMs);
  let reported: number;
  try {
    reported = await chain.client.getChainId();
  } catch (error) {
    await chain.close();
    return { kind: "unreachable", failure: describeFailure(error, timeoutMs) };
  }
  try {
    assertRpcChainId(config, reported, index);
  } catch (error) {
    await chain.close();
    if (!(error instanceof ChainIdMismatchError)) throw error;
    return { kind: "mismatch", reported, message: error.shortMessage };
  }
  return { kind: "answered", reported, chain };
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
