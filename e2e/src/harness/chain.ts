/** Read-only chain checks the scenarios assert on. */
import { permitBurnerAbi, zerc20TokenAbi, zerc20Protocol } from "@svc/scheme";
import { createPublicClient, http, type Address, type Hex, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import type { StackProcess } from "./startStackProcess.js";

/** A public client on the stack's anvil. */
export function chainClient(stack: StackProcess): PublicClient {
  return createPublicClient({ chain: foundry, transport: http(stack.deployment.rpcUrl) }) as PublicClient;
}

/** zERC20 balance of `address`. */
export function tokenBalance(stack: StackProcess, address: Address): Promise<bigint> {
  return chainClient(stack).readContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [address] });
}

/** How many permit burns PermitBurner executed in total. */
export async function permitBurnCount(stack: StackProcess): Promise<number> {
  const logs = await chainClient(stack).getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    fromBlock: 0n,
  });
  return logs.length;
}

/** Hashes of the permit burns PermitBurner executed for one offer (its `challengeNonce`), oldest first. */
export async function permitBurnsFor(stack: StackProcess, challengeNonce: Hex): Promise<Hex[]> {
  const logs = await chainClient(stack).getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    args: { challengeNonce },
    fromBlock: 0n,
  });
  return logs.map((log) => log.transactionHash);
}

/** How many proof-gated mints went to `to`. */
export async function mintCount(stack: StackProcess, to: Address): Promise<number> {
  const logs = await chainClient(stack).getLogs({
    address: stack.deployment.verifier,
    event: zerc20Protocol(stack.deployment.protocol).teleportEvent,
    args: { to },
    fromBlock: 0n,
  });
  return logs.length;
}
