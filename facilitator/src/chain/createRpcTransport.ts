/**
 * The daemon's RPC transport over every configured endpoint: viem's `fallback` over one `http` (the calls of one
 * turn sent as one JSON-RPC batch per endpoint by `coalesceJsonRpc`, over undici's `request`: `createPooledFetch`,
 * both of `@svc/scheme`) or `webSocket` transport
 * per URL, tried in the configured order, with two policies of ours on top:
 *
 * - When to move on. viem's default moves on after any error but a few JSON-RPC codes and a revert message.
 *   Ours moves on only when the endpoint did not answer: a connection refused, HTTP 429 or a JSON-RPC rate-limit
 *   code, a timeout, a dropped connection, an HTTP 5xx. A node's JSON-RPC error (a revert, a nonce refusal,
 *   invalid params) is its answer and is returned as is: asking another node would at best repeat it, and the
 *   settlement code reads a JSON-RPC error on a send as "the node refused the transaction" (see
 *   settlement/relayReachedChain.ts), which only holds for the node that got the transaction.
 * - Writes. A send moves on only when the transaction provably never left: a refused connection, a 429, or an
 *   endpoint passed by while backed off. After a timeout or a dropped connection the transaction may be out, so
 *   the transport failure is returned as is (the caller answers `pending_burn`): moving on could turn it into a
 *   later node's refusal ("nonce too low", "already known") and release a payment that may still burn.
 *
 * Every attempt feeds {@link RpcEndpointHealth}, which makes requests pass a failing endpoint by with backoff. An
 * endpoint is asked for its chain id before its first use and again after every failure: one serving another
 * chain is treated as failed, and the request moves on without being sent there.
 */
import { coalesceJsonRpc, createPooledFetch } from "@svc/scheme";
import { BaseError, fallback, HttpRequestError, http, RpcRequestError, webSocket, type Transport } from "viem";

import { redactUrlOrigin } from "../config/redactUrl.js";
import { RpcEndpointChainError, RpcEndpointSkippedError } from "./errors.js";
import type { RpcEndpointHealth, RpcEndpointLabel } from "./rpcEndpointHealth.js";

/** How one failed attempt on one endpoint reads. */
export const RPC_FAILURE = {
  /** The node answered with a JSON-RPC error: its answer, returned as is. */
  answer: "answer",
  /** The request provably never reached the node (refused connection, rate limited, passed by). */
  notDelivered: "not_delivered",
  /** The endpoint failed in a way that says nothing of whether the node got the request (timeout, cut, 5xx). */
  ambiguous: "ambiguous",
} as const;

/** One of the values of {@link RPC_FAILURE}. */
export type RpcFailure = (typeof RPC_FAILURE)[keyof typeof RPC_FAILURE];

/** Methods that change chain state: they move on only after a failure that provably did not deliver them. */
const WRITE_METHODS = new Set(["eth_sendRawTransaction", "eth_sendRawTransactionSync", "eth_sendTransaction"]);

// -32005 is EIP-1474's limit exceeded; 429 in a JSON-RPC body (Alchemy batches) and -32007 (QuickNode) are the
// rate limits providers answer with HTTP 200.
const RATE_LIMIT_CODES = new Set([-32005, 429, -32007]);

// Connection-level failures that happen before a byte of the request is sent.
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** How long one attempt on one endpoint may take by default. */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/** The transports {@link createRpcTransport} builds. */
export type RpcTransport = {
  /** The failover transport every client of the daemon uses. */
  transport: Transport;
  /** One transport per endpoint, without failover or health feedback: what the readiness probe asks directly. */
  endpoints: readonly Transport[];
  /** Closes the WebSocket connections (HTTP holds none open). */
  close: () => Promise<void>;
};

/** Labels for `urls`, safe to show anywhere: `rpc#<index>` and the scheme and host only. */
export function rpcEndpointLabels(urls: readonly string[]): RpcEndpointLabel[] {
  return urls.map((url, index) => ({ endpoint: `rpc#${index}`, origin: redactUrlOrigin(url) }));
}

/**
 * Reads a failed attempt: the node's answer, never delivered, or ambiguous.
 *
 * @example
 * classifyRpcFailure(new HttpRequestError({ url, status: 429 })); // "not_delivered"
 */
export function classifyRpcFailure(error: unknown): RpcFailure {
  if (error instanceof RpcEndpointSkippedError || error instanceof RpcEndpointChainError) return RPC_FAILURE.notDelivered;
  if (!(error instanceof BaseError)) return RPC_FAILURE.ambiguous;
  const rpc = error.walk((cause) => cause instanceof RpcRequestError);
  if (rpc instanceof RpcRequestError) {
    if (rpc.status === 429 || RATE_LIMIT_CODES.has(rpc.code)) return RPC_FAILURE.notDelivered;
    // A gateway's 5xx with a JSON-RPC body is the gateway failing, not the node answering.
    if (rpc.status !== undefined && rpc.status >= 500) return RPC_FAILURE.ambiguous;
    return RPC_FAILURE.answer;
  }
  const transport = error.walk((cause) => cause instanceof HttpRequestError);
  if (transport instanceof HttpRequestError) {
    if (transport.status === 429) return RPC_FAILURE.notDelivered;
    if (transport.status === undefined && hasErrorCode(transport.cause, NEVER_CONNECTED)) return RPC_FAILURE.notDelivered;
  }
  return RPC_FAILURE.ambiguous;
}

/**
 * Creates the failover transport over `urls` (in order), reporting to `health`.
 *
 * @example
 * const health = createRpcEndpointHealth({ endpoints: rpcEndpointLabels(urls) });
 * const { transport } = createRpcTransport({ urls, health });
 * const client = createPublicClient({ chain, transport });
 */
export function createRpcTransport(params: {
  urls: readonly string[];
  /** `network.chain_id`: an endpoint is used only once it answered `eth_chainId` with it. */
  chainId: number;
  health: RpcEndpointHealth;
  timeoutMs?: number | undefined;
}): RpcTransport {
  const timeout = params.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  const labels = rpcEndpointLabels(params.urls);
  const sockets = params.urls.filter(isWebSocketUrl).map((url) => webSocket(url, { retryCount: 0, timeout }));
  const pool = createPooledFetch();
  // viem batches behind a 1 ms timer; the coalescer sends the same batch as soon as the turn ends.
  const rpcFetch = coalesceJsonRpc(pool.fetch);
  let socket = 0;
  const endpoints = params.urls.map((url): Transport => {
    if (!isWebSocketUrl(url)) return http(url, { retryCount: 0, timeout, fetchFn: rpcFetch });
    const transport = sockets[socket++];
    if (transport === undefined) throw new RangeError("socket transports out of step with the URLs");
    return transport;
  });
  // Errors after which a write must not move on; marked by the endpoint that threw them, read by `shouldThrow`.
  const stopHere = new WeakSet<object>();
  // Errors of the chain id check: the request itself was never sent, so it moves on whatever the error says.
  const moveOn = new WeakSet<object>();
  const guarded = endpoints.map((base, index): Transport => {
    const endpoint = labels[index]?.endpoint ?? `rpc#${index}`;
    // One chain check at a time per endpoint: concurrent requests share it (fallback builds a transport per request).
    let checking: Promise<void> | undefined;
    return (transportParams) => {
      const inner = base(transportParams);
      const checkChain = (): Promise<void> => {
        if (params.health.isChainChecked(index)) return Promise.resolve();
        checking ??= inner
          .request({ method: "eth_chainId" })
          .then((reported) => {
            const chainId = Number(reported);
            if (chainId !== params.chainId) throw new RpcEndpointChainError({ endpoint, expected: params.chainId, reported: chainId });
            params.health.chainChecked(index);
          })
          .finally(() => {
            checking = undefined;
          });
        return checking;
      };
      type RequestFn = typeof inner.request;
      // Typed as the inner request function: the wrapper returns whatever it returns, so its generic return type
      // (which TypeScript cannot carry through a wrapper) holds.
      const request = ((args: Parameters<RequestFn>[0], options?: Parameters<RequestFn>[1]): Promise<unknown> => {
        const write = WRITE_METHODS.has(args.method);
        if (params.health.shouldSkip(index, write)) return Promise.reject(new RpcEndpointSkippedError({ endpoint }));
        return checkChain().then(
          () =>
            inner.request(args, options).then(
              (result) => {
                params.health.succeeded(index);
                return result;
              },
              (error: unknown) => {
                if (isAbort(error)) throw error;
                const failure = classifyRpcFailure(error);
                if (failure === RPC_FAILURE.answer) params.health.succeeded(index);
                else params.health.failed(index, errorName(error));
                if (write && failure === RPC_FAILURE.ambiguous && typeof error === "object" && error !== null) stopHere.add(error);
                throw error;
              },
            ),
          (error: unknown) => {
            if (isAbort(error)) throw error;
            // Whatever the check met (a timeout, a JSON-RPC error, another chain), the endpoint cannot be used now.
            params.health.failed(index, errorName(error));
            if (typeof error === "object" && error !== null) moveOn.add(error);
            throw error;
          },
        );
      }) as RequestFn;
      return { ...inner, request };
    };
  });
  const transport = fallback(guarded, {
    // Retries would re-send after an ambiguous failure and hide an endpoint's failure from the health scores.
    retryCount: 0,
    shouldThrow: (error) => !moveOn.has(error) && (isAbort(error) || stopHere.has(error) || classifyRpcFailure(error) === RPC_FAILURE.answer),
  });
  const close = async () => {
    await pool.close();
    await Promise.all(
      sockets.map((socketTransport) =>
        socketTransport({})
          .value?.getRpcClient()
          .then((client) => client.close())
          .catch(() => undefined),
      ),
    );
  };
  return { transport, endpoints, close };
}

function isWebSocketUrl(url: string): boolean {
  return url.startsWith("ws:") || url.startsWith("wss:");
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "unknown";
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** Whether `error` or a cause of it carries one of `codes` (Node's `code`); an aggregate counts when all of it does. */
function hasErrorCode(error: unknown, codes: ReadonlySet<string>, depth = 0): boolean {
  if (depth > 8 || typeof error !== "object" || error === null) return false;
  const code: unknown = Reflect.get(error, "code");
  if (typeof code === "string" && codes.has(code)) return true;
  const errors: unknown = Reflect.get(error, "errors");
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => hasErrorCode(inner, codes, depth + 1))) return true;
  return hasErrorCode(Reflect.get(error, "cause"), codes, depth + 1);
}
