/**
 * What the facilitator must know of the configured token before it offers anything: its decimals (zUSDC has
 * 6, others 18; amounts are shown in token units) and whether it implements EIP-2612 permit (v1 tokens do
 * not, so their offers carry no `helper` and only the self-transfer path is offered).
 */
import { zerc20TokenAbi } from "@svc/scheme";
import { zeroAddress, type Address, type PublicClient } from "viem";

/** The token facts read at start. */
export type TokenFacts = { decimals: number; permit: boolean };

/**
 * Reads `decimals()` and probes permit (`DOMAIN_SEPARATOR()` and `nonces(address)` both answer). A failing
 * `decimals()` throws (the RPC is away or the address is no token); a failing permit probe means no permit.
 */
export async function readTokenFacts(client: PublicClient, token: Address): Promise<TokenFacts> {
  const read = { address: token, abi: zerc20TokenAbi } as const;
  const [decimals, permit] = await Promise.all([
    client.readContract({ ...read, functionName: "decimals" }),
    Promise.all([
      client.readContract({ ...read, functionName: "DOMAIN_SEPARATOR" }),
      client.readContract({ ...read, functionName: "nonces", args: [zeroAddress] }),
    ]).then(
      () => true,
      () => false,
    ),
  ]);
  return { decimals, permit };
}
