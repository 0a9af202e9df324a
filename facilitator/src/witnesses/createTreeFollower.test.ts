/**
 * The follower against a real stack (anvil, the contracts, the fixture indexer proving roots every 300 ms): its
 * roots are the verifier's proved roots, its paths are the indexer's, a wrong leaf formula stops it by name, and
 * a restarted follower reads on from its saved block.
 */
import { waitFor } from "@svc/anvil-fixtures";
import { verifyMerklePath, zerc20Protocol, zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import { type Address, createWalletClient, http, isAddressEqual, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainFinality } from "../chain/chainFinality.js";
import { createIndexerClient } from "../finalize/indexerClient.js";
import { startTestStack, type TestStack } from "../testing/localFacilitator.js";
import { createTreeFollower, initialFollowerState, type TreeFollowerState } from "./createTreeFollower.js";
import { WitnessRootMismatchError, WitnessUnavailableError } from "./errors.js";

let stack: TestStack;
const ours: Address = "0x00000000000000000000000000000000000b0b01";
const other = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300 });
});

afterAll(async () => {
  await stack?.close();
});

async function transfer(to: Address, value: bigint): Promise<bigint> {
  const wallet = createWalletClient({
    account: privateKeyToAccount(stack.deployment.accounts.payer.privateKey),
    chain: foundry,
    transport: http(stack.deployment.rpcUrl),
  });
  const hash = await wallet.writeContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "transfer", args: [to, value] });
  const receipt = await stack.client.waitForTransactionReceipt({ hash });
  const index = await stack.client.readContract({
    address: stack.deployment.token,
    abi: zerc20TokenAbi,
    functionName: "index",
    blockNumber: receipt.blockNumber,
  });
  return index - 1n;
}

/** Waits until the verifier has proved a root covering every transfer so far; returns that index. */
async function everyLeafProved(): Promise<bigint> {
  const leaves = await stack.client.readContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "index" });
  return waitFor(
    async () => {
      const proved = await stack.client.readContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" });
      return proved >= leaves ? proved : undefined;
    },
    { what: `a proved root over ${leaves} leaves`, timeoutMs: 30_000 },
  );
}

function follower(options: { state?: TreeFollowerState; client?: PublicClient; wrongVersion?: boolean } = {}) {
  const version = stack.deployment.protocol;
  const protocol = zerc20Protocol(options.wrongVersion ? (version === "zerc20-v1" ? "zerc20-v2" : "zerc20-v1") : version);
  return createTreeFollower({
    client: options.client ?? stack.client,
    token: stack.deployment.token,
    verifier: stack.deployment.verifier,
    protocol,
    finality: createChainFinality(stack.client, { confirmations: 1, finality: { depth: 1 } }),
    isOurs: (to) => isAddressEqual(to, ours),
    state: options.state ?? initialFollowerState(BigInt(stack.deployment.deployBlockNumber)),
    chunkBlocks: 7n,
  });
}

const provedRoot = (index: bigint) =>
  stack.client.readContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName: "provedTransferRoots", args: [index] });

describe("transfer tree follower", () => {
  let saved: TreeFollowerState;
  let ourLeaf: bigint;

  it("reaches the proved index with the verifier's root, and our leaf's path is the indexer's", async () => {
    await transfer(other(1), 10n);
    await transfer(other(2), 20n);
    ourLeaf = await transfer(ours, 30n);
    await transfer(other(3), 40n);
    const proved = await everyLeafProved();
    const followed = follower();
    const progress = await followed.sync();
    expect(progress.leaves).toBe(proved);
    expect(progress.lastChecked).toEqual({ index: proved, root: await provedRoot(proved) });
    expect(progress.tracked).toBe(1);
    const [path] = followed.proofs(proved, [ourLeaf]);
    const leaf = zerc20Protocol(stack.deployment.protocol).transferLeaf({ from: stack.deployment.accounts.payer.address, to: ours, value: 30n });
    expect(verifyMerklePath({ leaf, leafIndex: ourLeaf, siblings: path?.siblings ?? [], root: await provedRoot(proved) })).toBe(true);
    const indexer = createIndexerClient({ url: stack.deployment.indexerUrl, chainId: stack.deployment.chainId, token: stack.deployment.token });
    const [fromIndexer] = await indexer.proofs(proved, [ourLeaf]);
    expect(path).toEqual(fromIndexer);
    // Only our leaves have paths, and only under the root it reached.
    expect(() => followed.proofs(proved, [ourLeaf + 1n])).toThrow(WitnessUnavailableError);
    expect(() => followed.proofs(proved + 1n, [ourLeaf])).toThrow(/behind/);
    saved = followed.state();
  });

  it("resumes from its saved block, not from the deployment block, and keeps advancing our path", async () => {
    await transfer(other(4), 50n);
    await transfer(other(5), 60n);
    const proved = await everyLeafProved();
    const reads: bigint[] = [];
    const client = {
      ...stack.client,
      getContractEvents: ((args: { fromBlock: bigint }) => {
        reads.push(args.fromBlock);
        return stack.client.getContractEvents(args as never);
      }) as PublicClient["getContractEvents"],
    } as PublicClient;
    const resumed = follower({ state: saved, client });
    const progress = await resumed.sync();
    expect(reads[0]).toBe(saved.nextBlock);
    expect(saved.nextBlock).toBeGreaterThan(BigInt(stack.deployment.deployBlockNumber));
    expect(progress.lastChecked).toEqual({ index: proved, root: await provedRoot(proved) });
    const [path] = resumed.proofs(proved, [ourLeaf]);
    expect(path?.root).toBe(await provedRoot(proved));
    const leaf = zerc20Protocol(stack.deployment.protocol).transferLeaf({ from: stack.deployment.accounts.payer.address, to: ours, value: 30n });
    expect(verifyMerklePath({ leaf, leafIndex: ourLeaf, siblings: path?.siblings ?? [], root: path?.root ?? 0n })).toBe(true);

    // Released by the burn address it was sent to (as the saved state recorded it), in any spelling.
    expect(saved.trackedRecipients).toEqual([{ leafIndex: ourLeaf, to: ours.toLowerCase() }]);
    resumed.release([other(1)]);
    expect(resumed.progress().tracked).toBe(1);
    resumed.release([ours.toUpperCase().replace("0X", "0x") as Address]);
    expect(resumed.progress().tracked).toBe(0);
    expect(resumed.state().trackedRecipients).toEqual([]);
    expect(() => resumed.proofs(proved, [ourLeaf])).toThrow(/untracked/);
  });

  it("stops with WitnessRootMismatchError when its root is not the verifier's, and gives no path after", async () => {
    const proved = await everyLeafProved();
    const wrong = follower({ wrongVersion: true });
    await expect(wrong.sync()).rejects.toThrow(WitnessRootMismatchError);
    expect(() => wrong.proofs(proved, [ourLeaf])).toThrow(WitnessRootMismatchError);
    await expect(wrong.sync()).rejects.toThrow(WitnessRootMismatchError);
  });
});
