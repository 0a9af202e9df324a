/**
 * The official x402 `exact` stack on the same anvil: the exact facilitator (`x402Facilitator` + `@x402/evm`)
 * behind its own counting JSON-RPC proxy, and the exact provider (`@x402/express`) in front of it, paid in
 * the EIP-3009 fixture token to the stack's `payee`.
 */
import { ANVIL_MNEMONIC, type RunningStack } from "@svc/anvil-fixtures";
import { createPublicClient, http, parseAbi, toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { attachInspector, INSPECT_NODE_OPTIONS, type InspectorSession } from "./inspectorSession.js";
import { startCountingRpcProxy, type CountingRpcProxy } from "./countingRpcProxy.js";
import { startBenchChild, type BenchChild } from "./startBenchChild.js";

/** The running exact side. */
export type ExactSide = {
  proxy: CountingRpcProxy;
  facilitator: BenchChild;
  /** DevTools session on the exact facilitator's main thread (CPU profiles). */
  inspector: InspectorSession;
  provider: BenchChild;
  /** Price of `GET /weather` in base units of the EIP-3009 token. */
  price: string;
  stop: () => Promise<void>;
};

/** Starts proxy, exact facilitator and exact provider. */
export async function startExactSide(parameters: { stack: RunningStack; price: string }): Promise<ExactSide> {
  const { deployment } = parameters.stack;
  const stoppers: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  try {
    const client = createPublicClient({ transport: http(deployment.rpcUrl) });
    const abi = parseAbi(["function name() view returns (string)", "function version() view returns (string)"]);
    const [name, version] = await Promise.all([
      client.readContract({ address: deployment.usdc3009, abi, functionName: "name" }),
      client.readContract({ address: deployment.usdc3009, abi, functionName: "version" }),
    ]);
    const proxy = await startCountingRpcProxy({ target: deployment.rpcUrl });
    stoppers.push(proxy.close);
    const facilitator = await startBenchChild("exactFacilitatorServer", {
      RPC_URL: proxy.url,
      // A relayer key of its own (anvil's last dev account), so its nonces never interleave with ours.
      RELAYER_PK: toHex(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 9 }).getHdKey().privateKey ?? new Uint8Array()),
      CHAIN_ID: String(deployment.chainId),
      NODE_OPTIONS: INSPECT_NODE_OPTIONS,
    });
    stoppers.push(() => facilitator.stop());
    const inspector = await attachInspector("the exact facilitator", facilitator.lines);
    stoppers.push(async () => inspector.close());
    const provider = await startBenchChild("exactProviderServer", {
      FACILITATOR_URL: facilitator.url,
      PAY_TO: deployment.accounts.payee.address,
      ASSET: deployment.usdc3009,
      ASSET_NAME: name,
      ASSET_VERSION: version,
      PRICE: parameters.price,
      CHAIN_ID: String(deployment.chainId),
    });
    stoppers.push(() => provider.stop());
    return { proxy, facilitator, inspector, provider, price: parameters.price, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
