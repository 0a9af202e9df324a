/**
 * What `make demo` tells a newcomer about privacy after the paid request: what a chain observer who knows the
 * local policy gets for this one payment (read from the chain like any observer, scored with the observer of
 * the suite and the bench), and what the testnet and production defaults change.
 */
import { readObservedChain, scoreRun } from "@svc/anvil-fixtures/observer";
import { createPublicClient, http, type Hash } from "viem";
import type { StackProcess } from "../harness/startStackProcess.js";

/** The local profile's finalize policy (mint on the next pass), with a slack wide enough for a loaded machine. */
const LOCAL_POLICY = { minDelaySeconds: 0, maxDelaySeconds: 0, minAnonymitySet: 1, slackSeconds: 30 };

/** Two lines: the observer's view of this payment under the local policy, then the defaults elsewhere. */
export async function describeObserverView(stack: StackProcess, burnTxHash: Hash, mintTxHash: Hash): Promise<string[]> {
  const { deployment } = stack;
  const client = createPublicClient({ transport: http(deployment.rpcUrl) });
  const mint = await client.getTransactionReceipt({ hash: mintTxHash });
  const observed = await readObservedChain({
    rpcUrl: deployment.rpcUrl,
    protocol: deployment.protocol,
    token: deployment.token,
    permitBurner: deployment.permitBurner,
    verifier: deployment.verifier,
    fromBlock: BigInt(deployment.deployBlockNumber),
    toBlock: mint.blockNumber,
  });
  const { mints } = scoreRun({ observed, policy: LOCAL_POLICY, truth: [{ burnTxHash, mintTxHash }] });
  const ours = mints.find((entry) => entry.transactionHash.toLowerCase() === mintTxHash.toLowerCase());
  const delay = ours?.delaySeconds === undefined ? "soon" : `${ours.delaySeconds} s`;
  return [
    `  observer: mint ${delay} after its burn, anonymity set ${ours?.policyAwareSet ?? 0}, FIFO guess ${ours?.fifoCorrect ? "right" : "wrong"} (local policy: mint on the next pass, one key relays and mints)`,
    "  testnet/production defaults: mints 60-1800 s after acceptance, early only with >= 3 same-amount payments waiting (anonymity set >= 3), and a separate minter key",
  ];
}
