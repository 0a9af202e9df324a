import { coalesceJsonRpc, parseNetwork, pooledFetch } from "@svc/scheme";
import { createPublicClient, defineChain, http, type Chain, type PublicClient, type Transport } from "viem";

import type { Policy } from "../policy/policy.js";

const readFetch = coalesceJsonRpc(pooledFetch);

/** How often viem polls for a burn's receipt: anvil mines at once, a public chain takes seconds either way. */
const POLL_MS = 250;

/** The allowed network as a viem chain on the policy's RPC, so viem refuses a transaction for another chain. */
export function policyChain(policy: Policy): Chain {
  return defineChain({
    id: parseNetwork(policy.allowedNetwork),
    name: policy.allowedNetwork,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [policy.rpcUrl] } },
  });
}

/**
 * The policy's RPC as viem transport: its timeout, no automatic retries, calls issued in one turn sent as one
 * JSON-RPC batch as soon as it ends (`coalesceJsonRpc`: the payer plugin's chain reads before signing are one
 * round trip, without viem's 1 ms batch timer), each exchange sent with undici's `request` on a shared keep-alive
 * pool (`pooledFetch`: half the CPU of the global `fetch`). Both are on the paid request's path.
 */
export function policyTransport(policy: Policy): Transport {
  return http(policy.rpcUrl, { timeout: policy.timeoutMs, retryCount: 0, fetchFn: readFetch });
}

/** A read-only client on the policy's RPC; quoting uses it without a key. */
export function createReadClient(policy: Policy): PublicClient<Transport, Chain> {
  return createPublicClient({ chain: policyChain(policy), transport: policyTransport(policy), pollingInterval: POLL_MS });
}
