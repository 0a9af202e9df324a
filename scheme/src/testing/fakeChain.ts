/**
 * A scripted stand-in for an Ethereum node behind real viem clients, for the payer plugin's unit tests: the
 * scheme package cannot start the local stack (anvil-fixtures depends on it), and the cases worth pinning
 * here (a reverted burn, a burn that never confirms, a node that refuses the broadcast) are the ones a
 * healthy anvil does not produce on demand. The happy paths run against anvil in the agent's tests.
 */
import {
  createPublicClient,
  createWalletClient,
  custom,
  decodeFunctionData,
  encodeFunctionResult,
  HttpRequestError,
  type Hex,
  isHex,
  keccak256,
  numberToHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

import type { PayerClients } from "../client/payerClients.js";
import { zerc20TokenAbi } from "../zerc20/abis.js";
import { TEST_CHAIN_ID, TEST_PAYER_KEY } from "./builders.js";

/** How the fake node behaves. */
export type FakeChainOptions = {
  chainId?: number;
  /** The payer's token balance. */
  balance?: bigint;
  /** The payer's permit nonce. */
  nonce?: bigint;
  tokenName?: string;
  /** What `eth_sendRawTransaction` does: take it, answer a JSON-RPC error, or fail at the transport. */
  broadcast?: "accept" | "reject" | "drop";
  /** The burn's receipt once sent: mined with success, mined reverted, or never mined. */
  receipt?: "success" | "reverted" | "never";
};

/** A fake node with the viem clients wired to it and a log of what reached it. */
export type FakeChain = PayerClients & {
  /** Every JSON-RPC method called, in order. */
  methods: string[];
  /** Raw transactions the node accepted. */
  sent: Hex[];
};

/** Builds the fake node and a public and wallet client (payer `TEST_PAYER_KEY`) talking to it. */
export function createFakeChain(options: FakeChainOptions = {}): FakeChain {
  const methods: string[] = [];
  const sent: Hex[] = [];
  const chainIdHex = numberToHex(options.chainId ?? TEST_CHAIN_ID);

  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    methods.push(method);
    const args = Array.isArray(params) ? params : [];
    switch (method) {
      case "eth_chainId":
        return chainIdHex;
      case "eth_call":
        return answerCall(args[0], options);
      case "eth_blockNumber":
        return "0x10";
      case "eth_getBlockByNumber":
        return { number: "0x10", hash: `0x${"ab".repeat(32)}`, timestamp: "0x1", baseFeePerGas: "0x1", transactions: [] };
      case "eth_maxPriorityFeePerGas":
        return "0x1";
      case "eth_estimateGas":
        return "0xc350";
      case "eth_getTransactionCount":
        return "0x0";
      case "eth_sendRawTransaction": {
        const raw = args[0];
        if (!isHex(raw)) throw rpcError(-32602, "invalid params");
        if (options.broadcast === "reject") throw rpcError(-32000, "insufficient funds for gas");
        // What viem's http transport throws when the connection dies before an answer arrives.
        if (options.broadcast === "drop") throw new HttpRequestError({ url: "http://127.0.0.1:8545", details: "fetch failed" });
        sent.push(raw);
        return keccak256(raw);
      }
      case "eth_getTransactionReceipt":
        return receiptFor(args[0], options.receipt ?? "success", sent);
      case "eth_getTransactionByHash":
        return null;
      default:
        throw rpcError(-32601, `method ${method} not found`);
    }
  };

  const transport = custom({ request }, { retryCount: 0 });
  const account = privateKeyToAccount(TEST_PAYER_KEY);
  return {
    methods,
    sent,
    publicClient: createPublicClient({ transport, pollingInterval: 5 }),
    walletClient: createWalletClient({ account, transport, pollingInterval: 5 }),
  };
}

function answerCall(call: unknown, options: FakeChainOptions): Hex {
  const data = typeof call === "object" && call !== null ? Reflect.get(call, "data") : undefined;
  if (!isHex(data)) throw rpcError(-32602, "eth_call without data");
  const { functionName } = decodeFunctionData({ abi: zerc20TokenAbi, data });
  switch (functionName) {
    case "balanceOf":
      return encodeFunctionResult({ abi: zerc20TokenAbi, functionName, result: options.balance ?? 10n ** 24n });
    case "nonces":
      return encodeFunctionResult({ abi: zerc20TokenAbi, functionName, result: options.nonce ?? 0n });
    case "name":
      return encodeFunctionResult({ abi: zerc20TokenAbi, functionName, result: options.tokenName ?? "zkERC20 Test" });
    default:
      throw rpcError(3, "execution reverted");
  }
}

function receiptFor(hash: unknown, outcome: "success" | "reverted" | "never", sent: readonly Hex[]) {
  if (outcome === "never" || typeof hash !== "string" || !sent.some((raw) => keccak256(raw) === hash)) return null;
  return {
    transactionHash: hash,
    transactionIndex: "0x0",
    blockHash: `0x${"cd".repeat(32)}`,
    blockNumber: "0x10",
    from: privateKeyToAccount(TEST_PAYER_KEY).address,
    to: null,
    cumulativeGasUsed: "0xc350",
    gasUsed: "0xc350",
    effectiveGasPrice: "0x2",
    contractAddress: null,
    logs: [],
    logsBloom: `0x${"00".repeat(256)}`,
    status: outcome === "success" ? "0x1" : "0x0",
    type: "0x2",
  };
}

function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
