/**
 * Finds the mint transaction of a recipient hash that the verifier already paid (`totalTeleported(R)` covers
 * the payment). No published `Teleport` event indexes `R`, so the search reads the version's mint event to the
 * treasury since the burn's block and matches the general recipient's tweak: v2 events carry it; for v1 the
 * mint transaction's own calldata (`singleTeleport`/`teleport`) is decoded.
 */
import { zerc20VerifierAbi, type GeneralRecipient, type Zerc20Protocol } from "@svc/scheme";
import { decodeFunctionData, type Address, type Hex, type PublicClient } from "viem";

/** Where to look and what to match. */
export type FindTeleportMintParameters = {
  client: PublicClient;
  protocol: Zerc20Protocol;
  verifier: Address;
  recipient: GeneralRecipient;
  fromBlock: bigint;
};

/** The hash of the mint transaction paying `recipient`, or `undefined` when none is found in range. */
export async function findTeleportMint(parameters: FindTeleportMintParameters): Promise<Hex | undefined> {
  const { client, protocol, recipient } = parameters;
  const to = `0x${recipient.recipient.slice(-40)}` as Address;
  const logs = await client.getLogs({
    address: parameters.verifier,
    event: protocol.teleportEvent,
    args: { to },
    fromBlock: parameters.fromBlock,
    strict: true,
  });
  const tweak = recipient.tweak.toLowerCase();
  for (const log of logs) {
    const gr = (log.args as { gr?: GeneralRecipient }).gr;
    if (gr !== undefined) {
      if (gr.tweak.toLowerCase() === tweak) return log.transactionHash ?? undefined;
      continue;
    }
    const transaction = await client.getTransaction({ hash: log.transactionHash as Hex });
    const call = decodeCall(transaction.input);
    if (call?.tweak.toLowerCase() === tweak) return transaction.hash;
  }
  return undefined;
}

// Mints sent through another contract (a multicall) do not decode as a direct call: they are not matched.
function decodeCall(input: Hex): GeneralRecipient | undefined {
  try {
    const decoded = decodeFunctionData({ abi: zerc20VerifierAbi, data: input });
    if (decoded.functionName !== "singleTeleport" && decoded.functionName !== "teleport") return undefined;
    return decoded.args[2];
  } catch {
    return undefined;
  }
}
