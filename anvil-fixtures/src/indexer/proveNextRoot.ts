/**
 * The root job: reserve the token's current hash chain on the verifier and publish a (fixture-)proved
 * transfer root for it, so transfers up to that index become provable for teleport.
 */
import { signFixtureProof, zerc20VerifierAbi } from "@svc/scheme";
import type { Account, Chain, Hex, PublicClient, Transport, WalletClient } from "viem";
import type { IndexedDeployment } from "./syncTransferLog.js";
import type { TransferLog } from "./transferLog.js";
import { IndexerOutOfSyncError } from "./IndexerOutOfSyncError.js";

/** What the root job needs: chain access, the prover's signing wallet and the fixture proof key. */
export type RootJobContext = {
  client: PublicClient;
  wallet: WalletClient<Transport, Chain, Account>;
  deployment: IndexedDeployment;
  fixtureProverKey: Hex;
  /** Brings `log` up to the chain; resolves to the log to use from then on. */
  sync: () => Promise<TransferLog>;
};

/** Proves a root over every transfer synced so far; does nothing when the latest proved root covers them. */
export async function proveNextRoot(context: RootJobContext): Promise<{ provedIndex: number } | undefined> {
  const { client, wallet, deployment } = context;
  const verifier = { address: deployment.verifier, abi: zerc20VerifierAbi } as const;
  let log = await context.sync();
  const oldIndex = Number(await client.readContract({ ...verifier, functionName: "latestProvedIndex" }));
  if (log.size <= oldIndex) return undefined;

  const reserveHash = await wallet.writeContract({ ...verifier, functionName: "reserveHashChain" });
  await client.waitForTransactionReceipt({ hash: reserveHash, timeout: 10_000 });
  const [reservedIndex, reservedHashChain, oldRoot] = await Promise.all([
    client.readContract({ ...verifier, functionName: "reservedIndex" }),
    client.readContract({ ...verifier, functionName: "reservedHashChain" }),
    client.readContract({ ...verifier, functionName: "provedTransferRoots", args: [BigInt(oldIndex)] }),
  ]);
  const newIndex = Number(reservedIndex);
  log = await context.sync();
  if (log.size < newIndex || log.hashChainAt(newIndex) !== reservedHashChain) {
    throw new IndexerOutOfSyncError({ reservedIndex: newIndex, syncedIndex: log.size });
  }
  const newRoot = log.tree.rootAt(newIndex);
  const proof = await signFixtureProof({
    privateKey: context.fixtureProverKey,
    circuit: "root",
    chainId: BigInt(await client.getChainId()),
    publicInputs: [BigInt(oldIndex), reservedIndex, log.hashChainAt(oldIndex), reservedHashChain, oldRoot, newRoot],
  });
  const proveHash = await wallet.writeContract({ ...verifier, functionName: "proveTransferRoot", args: [proof] });
  await client.waitForTransactionReceipt({ hash: proveHash, timeout: 10_000 });
  log.recordProvedRoot(newIndex, newRoot);
  return { provedIndex: newIndex };
}
