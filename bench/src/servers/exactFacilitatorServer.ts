/**
 * The official x402 `exact` EVM facilitator, as an operator would run it for the comparison: an
 * `x402Facilitator` from `@x402/core` with `@x402/evm`'s exact facilitator scheme registered for the local
 * chain, behind a small Express app (`GET /supported`, `POST /verify`, `POST /settle`). The relayer account
 * uses viem's nonce manager, without which concurrent settles race on the nonce.
 *
 * Environment: `RPC_URL`, `RELAYER_PK`, `CHAIN_ID`, `PORT` (0 = free port). Prints
 * `{"event":"listening","url":...}` when ready and one `{"event":"settle",...}` line per settle.
 */
import type { AddressInfo } from "node:net";
import { x402Facilitator } from "@x402/core/facilitator";
import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema, type z } from "@x402/core/schemas";
import type { Network, PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import express, { type Request, type Response } from "express";
import { createWalletClient, defineChain, http, isHex, nonceManager, publicActions, type Abi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { announceListening, integerEnv, requireEnv } from "./serverEnv.js";

const rpcUrl = requireEnv("RPC_URL");
const relayerKey = requireEnv("RELAYER_PK");
const chainId = integerEnv("CHAIN_ID", 31337);
if (!isHex(relayerKey)) {
  process.stderr.write("RELAYER_PK must be 0x-prefixed hex\n");
  process.exit(2);
}

const chain = defineChain({
  id: chainId,
  name: `eip155:${chainId}`,
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
});
const account = privateKeyToAccount(relayerKey, { nonceManager });
// Receipt polling every 100 ms, as our facilitator polls; viem's default (4 s) would dominate every settle.
const client = createWalletClient({ account, chain, transport: http(rpcUrl), pollingInterval: 100 }).extend(publicActions);

const signer = toFacilitatorEvmSigner({
  address: account.address,
  readContract: (args) => client.readContract({ ...args, abi: args.abi as Abi, args: args.args ?? [] }),
  verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
  writeContract: (args) =>
    client.writeContract({ ...args, abi: args.abi as Abi, args: args.args, account, chain } as Parameters<typeof client.writeContract>[0]),
  sendTransaction: (args) => client.sendTransaction({ ...args, account, chain }),
  waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
  getCode: (args) => client.getCode(args),
});

const network = `eip155:${chainId}` as const;
const facilitator = registerExactEvmScheme(new x402Facilitator(), { signer, networks: network });

/** A CAIP-2 network id as the core types spell it (the schemas only say `string`). */
function isCaip2(value: string): value is Network {
  return /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(value);
}

type ParsedRequirements = z.infer<typeof PaymentRequirementsV2Schema>;

/** Core's requirements type from schema output: a CAIP-2 network and a present `extra`. */
function toRequirements(parsed: ParsedRequirements): PaymentRequirements | undefined {
  if (!isCaip2(parsed.network)) return undefined;
  return { ...parsed, network: parsed.network, extra: parsed.extra ?? {} };
}

/** Parses the body the official HTTPFacilitatorClient sends through core's own schemas; a malformed one is a 400. */
function parseBody(request: Request, response: Response): { payload: PaymentPayload; requirements: PaymentRequirements } | undefined {
  const body: unknown = request.body;
  const record: Record<string, unknown> = typeof body === "object" && body !== null ? { ...body } : {};
  const payload = PaymentPayloadV2Schema.safeParse(record.paymentPayload);
  const requirements = PaymentRequirementsV2Schema.safeParse(record.paymentRequirements);
  const accepted = payload.success ? toRequirements(payload.data.accepted) : undefined;
  const required = requirements.success ? toRequirements(requirements.data) : undefined;
  if (!payload.success || accepted === undefined || required === undefined) {
    response.status(400).json({ error: "paymentPayload and paymentRequirements are required" });
    return undefined;
  }
  const resource = payload.data.resource;
  return {
    payload: {
      x402Version: payload.data.x402Version,
      accepted,
      payload: payload.data.payload,
      ...(resource ? { resource: { url: resource.url, description: resource.description ?? "", mimeType: resource.mimeType ?? "" } } : {}),
      ...(payload.data.extensions ? { extensions: payload.data.extensions } : {}),
    },
    requirements: required,
  };
}

const app = express();
app.disable("x-powered-by");
app.use(express.json({ limit: "64kb" }));
app.get("/supported", (_request, response) => {
  response.json(facilitator.getSupported());
});
app.post("/verify", async (request, response) => {
  const parsed = parseBody(request, response);
  if (!parsed) return;
  try {
    response.json(await facilitator.verify(parsed.payload, parsed.requirements));
  } catch (error) {
    response.status(500).json({ error: error instanceof Error ? error.message : String(error) });
  }
});
app.post("/settle", async (request, response) => {
  const parsed = parseBody(request, response);
  if (!parsed) return;
  try {
    const result = await facilitator.settle(parsed.payload, parsed.requirements);
    process.stdout.write(
      `${JSON.stringify({ ts: new Date().toISOString(), event: "settle", success: result.success, transaction: result.transaction, errorReason: result.errorReason })}\n`,
    );
    response.json(result);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stdout.write(`${JSON.stringify({ ts: new Date().toISOString(), event: "settle", success: false, error: message })}\n`);
    response.status(500).json({ error: message });
  }
});

const server = app.listen(integerEnv("PORT", 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  announceListening(`http://127.0.0.1:${port}`, { relayer: account.address });
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
