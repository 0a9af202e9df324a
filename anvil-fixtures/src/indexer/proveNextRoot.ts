/**
 * The root job: reserve the token's current hash chain on the verifier and prove the transfer root over every
 * transfer since the last proved index with a fixture root proof (`abi.encode(uint256[32])`, the published
 * encoding), sent by the root prover (the account a v2 verifier allow-lists). Transfers up to the new index
 * then become provable for teleport.
 */
import { signFixtureRootProof, zerc20VerifierAbi, type Zerc20Protocol } from "@svc/scheme";
import type { Abi, Account, Chain, Hex, PublicClient, Transport, WalletClient } from "viem";
import { fixtureVerifierAdminAbi } from "../contracts/fixtureAdminAbis.js";
import { IndexerOutOfSyncError, RootJobRevertedError } from "./errors.js";
import type { IndexedDeployment } from "./syncTransferLog.js";
import type { TransferLog } from "./transferLog.js";

/** What the root job needs: chain access, the prover's signing wallet and the fixture proof key. */
export type RootJobContext = {
  client: PublicClient;
  wallet: WalletClient<Transport, Chain, Account>;
  deployment: IndexedDeployment;
  /** The verifier's version: its ABI names the reverts (v2's `UnauthorizedProver`) in the job's errors. */
  protocol: Zerc20Protocol;
  fixtureProverKey: Hex;
  /** Brings `log` up to the chain; resolves to the log to use from then on. */
  sync: () => Promise<TransferLog>;
};

/** How long one transaction of the root job may take to be mined. */
const RECEIPT_TIMEOUT_MS = 10_000;

/** Proves a root over every transfer synced so far; does nothing when the latest proved root covers them. */
export async function proveNextRoot(context: RootJobContext): Promise<{ provedIndex: number } | undefined> {
  const { client, wallet, deployment } = context;
  const verifier = { address: deployment.verifier, abi: zerc20VerifierAbi } as const;
  // Writes carry the version's whole ABI and the fixture errors, so a revert names its cause.
  const writableAbi: Abi = [...context.protocol.verifierAbi, ...fixtureVerifierAdminAbi];
  const writable = { address: deployment.verifier, abi: writableAbi } as const;
  let log = await context.sync();
  const oldIndex = await client.readContract({ ...verifier, functionName: "latestProvedIndex" });
  if (BigInt(log.size) <= oldIndex) return undefined;

  const reserveHash = await wallet.writeContract({ ...writable, functionName: "reserveHashChain" });
  const reserved = await client.waitForTransactionReceipt({ hash: reserveHash, timeout: RECEIPT_TIMEOUT_MS });
  if (reserved.status !== "success") throw new RootJobRevertedError({ step: "reserveHashChain", transactionHash: reserveHash });
  // Read at the reservation's block: a later reservation by someone else must not move our target.
  const newIndex = await client.readContract({ ...verifier, functionName: "latestReservedIndex", blockNumber: reserved.blockNumber });
  if (newIndex <= oldIndex) return undefined;
  const [newHashChain, oldRoot] = await Promise.all([
    client.readContract({ ...verifier, functionName: "reservedHashChains", args: [newIndex] }),
    client.readContract({ ...verifier, functionName: "provedTransferRoots", args: [oldIndex] }),
  ]);
  log = await context.sync();
  if (log.size < Number(newIndex) || log.hashChainAt(Number(newIndex)) !== newHashChain) {
    throw new IndexerOutOfSyncError({ reservedIndex: Number(newIndex), syncedIndex: log.size });
  }
  const newRoot = log.tree.rootAt(Number(newIndex));
  const proof = await signFixtureRootProof({
    privateKey: context.fixtureProverKey,
    chainId: BigInt(await client.getChainId()),
    // One folding step per transfer between the two indexes, as the real root prover folds them.
    steps: newIndex - oldIndex,
    old: { index: oldIndex, hashChain: log.hashChainAt(Number(oldIndex)), root: oldRoot },
    new: { index: newIndex, hashChain: newHashChain, root: newRoot },
  });
  const proveHash = await wallet.writeContract({ ...writable, functionName: "proveTransferRoot", args: [proof] });
  const proved = await client.waitForTransactionReceipt({ hash: proveHash, timeout: RECEIPT_TIMEOUT_MS });
  if (proved.status !== "success") throw new RootJobRevertedError({ step: "proveTransferRoot", transactionHash: proveHash });
  log.recordProvedRoot(Number(newIndex), newRoot);
  return { provedIndex: Number(newIndex) };
}
