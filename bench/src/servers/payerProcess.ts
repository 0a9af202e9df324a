/**
 * The payer as its own process (started with an IPC channel by the bench), so its CPU is measured apart from
 * the orchestrator, the fixture indexer and the RPC proxies. It pays with the official `@x402/fetch` client:
 * our scheme through the svc-zerc20 payer plugin (`registerSvcZerc20Client`, permit or self-transfer), the
 * official scheme through `@x402/evm`'s exact client. Clients are built once per key and scheme and reused,
 * as a long-running agent would.
 */
import { coalesceJsonRpc, pooledFetch, registerSvcZerc20Client } from "@svc/scheme";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { Network, PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { createPublicClient, createWalletClient, defineChain, http, type Chain, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { PayerReply, PayerRequest, PayerScheme, PaidResult, PayerSetup } from "./payerProtocol.js";

/** Receipt polling of the payer's clients: the agent's own setting (anvil mines at once). */
const POLL_MS = 250;

let setup: PayerSetup | undefined;
let chain: Chain | undefined;
const clients = new Map<string, x402Client>();

function requireSetup(): { setup: PayerSetup; chain: Chain } {
  if (!setup || !chain) throw new TypeError("the payer was not set up");
  return { setup, chain };
}

/** The x402 client of one key and scheme, built on first use. */
function clientFor(scheme: PayerScheme, privateKey: Hex): x402Client {
  const key = `${scheme}:${privateKey}`;
  const existing = clients.get(key);
  if (existing) return existing;
  const { setup: current, chain: payerChain } = requireSetup();
  const network = `eip155:${current.chainId}` as const satisfies Network;
  const account = privateKeyToAccount(privateKey);
  const client = new x402Client();
  if (scheme === "exact") {
    registerExactEvmScheme(client, { signer: account, networks: [network] });
    // 2.27's spend controls know only default assets; the fixture token has to be listed, as any custom one.
    client.setSpendControls({ allowedAssets: [{ network, asset: current.exactAsset, maxAmountPerPayment: current.maxAmount }] });
  } else {
    // Like the agent's own transport: the payer plugin's chain reads, issued together, go out as one batch
    // (`coalesceJsonRpc`) over the shared pool.
    const transport = http(current.rpcUrl, { retryCount: 0, fetchFn: coalesceJsonRpc(pooledFetch) });
    const publicClient = createPublicClient({ chain: payerChain, transport, pollingInterval: POLL_MS });
    const walletClient = createWalletClient({ chain: payerChain, transport, account, pollingInterval: POLL_MS });
    registerSvcZerc20Client(client, {
      mode: scheme,
      publicClient,
      walletClient,
      allowedAssets: [{ network, asset: current.oursAsset, maxAmountPerPayment: current.maxAmount }],
    });
  }
  clients.set(key, client);
  return client;
}

/** Reads the settle outcome the provider returned in `PAYMENT-RESPONSE`, if any. */
function settleOf(response: Response): Pick<PaidResult, "transaction" | "errorReason"> {
  const header = response.headers.get("PAYMENT-RESPONSE");
  if (header === null) return {};
  try {
    const settle = decodePaymentResponseHeader(header);
    return { transaction: settle.transaction, ...(settle.errorReason === undefined ? {} : { errorReason: settle.errorReason }) };
  } catch {
    return {};
  }
}

async function pay(scheme: PayerScheme, privateKey: Hex, url: string): Promise<PaidResult> {
  // Every HTTP exchange the x402 fetch wrapper makes is timed, to split the request into its legs.
  const exchanges: { start: number; end: number }[] = [];
  const timedFetch: typeof fetch = async (input, init) => {
    const exchange = { start: performance.now(), end: Number.NaN };
    exchanges.push(exchange);
    const response = await fetch(input, init);
    exchange.end = performance.now();
    return response;
  };
  const fetchWithPayment = wrapFetchWithPayment(timedFetch, clientFor(scheme, privateKey));
  const started = performance.now();
  try {
    const response = await fetchWithPayment(url);
    await response.arrayBuffer();
    const ended = performance.now();
    const [unpaid, paid] = exchanges;
    const legs =
      unpaid !== undefined && paid !== undefined
        ? { unpaidMs: unpaid.end - unpaid.start, createMs: paid.start - unpaid.end, paidMs: ended - paid.start }
        : undefined;
    return { status: response.status, ms: ended - started, ...(legs === undefined ? {} : { legs }), ...settleOf(response) };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** Requests `url` unpaid, and signs (and, self-transfer, burns) a payment for its 402 without sending it. */
async function prepare(scheme: PayerScheme, privateKey: Hex, url: string) {
  const httpClient = new x402HTTPClient(clientFor(scheme, privateKey));
  const unpaid = await fetch(url);
  const body: unknown = await unpaid.json().catch(() => undefined);
  if (unpaid.status !== 402) throw new TypeError(`expected 402 from ${url}, got ${unpaid.status}`);
  const paymentRequired = httpClient.getPaymentRequiredResponse((name) => unpaid.headers.get(name), body);
  const paymentPayload: PaymentPayload = await httpClient.createPaymentPayload(paymentRequired);
  const requirements: PaymentRequirements = paymentPayload.accepted;
  return { headers: httpClient.encodePaymentSignatureHeader(paymentPayload), paymentPayload, requirements };
}

/** Sends every prepared paid request at once and times each and the whole burst. */
async function sendPrepared(items: readonly { url: string; headers: Record<string, string> }[]) {
  const started = performance.now();
  const results = await Promise.all(
    items.map(async (item): Promise<PaidResult> => {
      const begin = performance.now();
      try {
        const response = await fetch(item.url, { headers: item.headers });
        await response.arrayBuffer();
        return { status: response.status, ms: performance.now() - begin, ...settleOf(response) };
      } catch (error) {
        return { status: 0, ms: performance.now() - begin, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  return { wallMs: performance.now() - started, results };
}

async function handle(request: PayerRequest): Promise<PayerReply> {
  switch (request.type) {
    case "setup":
      setup = request.setup;
      chain = defineChain({
        id: setup.chainId,
        name: `eip155:${setup.chainId}`,
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [setup.rpcUrl] } },
      });
      return { id: request.id, type: "ok" };
    case "pay":
      return { id: request.id, type: "paid", result: await pay(request.scheme, request.privateKey, request.url) };
    case "prepare":
      return { id: request.id, type: "prepared", ...(await prepare(request.scheme, request.privateKey, request.url)) };
    case "sendPrepared":
      return { id: request.id, type: "sent", ...(await sendPrepared(request.items)) };
  }
}

process.on("message", (message: PayerRequest) => {
  handle(message)
    .catch(
      (error: unknown): PayerReply => ({ id: message.id, type: "error", message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
    )
    .then((reply) => process.send?.(reply));
});
process.on("disconnect", () => process.exit(0));
process.send?.({ id: 0, type: "ready" } satisfies PayerReply);
