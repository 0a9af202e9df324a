/**
 * The fixture indexer on a real chain, both versions: its JSON is the published one (u64 numbers, unpadded
 * hex uint256, parsed here by `@svc/scheme`'s schemas), its paths verify with the version's leaf against the
 * root the verifier proved, and its root job reserves and proves with a `uint256[32]` root proof sent by the
 * root prover.
 */
import {
  decodeRootProof,
  INDEXER_MAX_PROOF_LEAVES,
  IndexerEventsSchema,
  IndexerProofsSchema,
  IndexerStatusSchema,
  IndexerTreeIndexSchema,
  type ProtocolVersion,
  verifyMerklePath,
  zerc20Protocol,
  zerc20TokenAbiV1,
  zerc20VerifierAbi,
} from "@svc/scheme";
import { createPublicClient, createWalletClient, decodeFunctionData, getAddress, http, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccounts, FIXTURE_PROVER_PRIVATE_KEY } from "../accounts/devAccounts.js";
import { startAnvil, type StartAnvilReturnType } from "../anvil/startAnvil.js";
import { deployContracts, type Deployment } from "../deploy/deployContracts.js";
import { getJson, postJson } from "../http/testing/fetchJson.js";
import { startIndexer, type RunningIndexer } from "./startIndexer.js";

const accounts = devAccounts();
const BURN_ADDRESS: Address = getAddress("0x00000000000000000000000000000000000b0057");

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("fixture indexer %s", (version) => {
  const protocol = zerc20Protocol(version);
  let anvil: StartAnvilReturnType;
  let deployment: Deployment;
  let indexer: RunningIndexer;
  let provedIndex: number | undefined;

  const client = () => createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  const query = () => `chain_id=${deployment.chainId}&token_address=${deployment.token}`;
  const proofsRequest = (targetIndex: number, leafIndices: unknown[]) => ({
    chain_id: deployment.chainId,
    token_address: deployment.token,
    target_index: targetIndex,
    leaf_indices: leafIndices,
  });

  beforeAll(async () => {
    anvil = await startAnvil();
    deployment = await deployContracts({ rpcUrl: anvil.rpcUrl, accounts, protocol: version });
    indexer = await startIndexer({
      rpcUrl: anvil.rpcUrl,
      chainId: deployment.chainId,
      protocol: version,
      token: deployment.token,
      verifier: deployment.verifier,
      rootProverKey: accounts.rootProver.privateKey,
      fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
      rootIntervalMs: 0,
    });
    // Two senders, so that under v2 the leaves' `from` matters.
    for (const [payer, value] of [
      ["payer", 7n],
      ["payer2", 5n],
    ] as const) {
      const wallet = createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl), account: privateKeyToAccount(accounts[payer].privateKey) });
      const hash = await wallet.writeContract({ address: deployment.token, abi: zerc20TokenAbiV1, functionName: "transfer", args: [BURN_ADDRESS, value] });
      expect((await client().waitForTransactionReceipt({ hash })).status).toBe("success");
    }
    provedIndex = await indexer.proveNow();
  });

  afterAll(async () => {
    await indexer?.close();
    await anvil?.stop();
  });

  it("the root job reserves and proves every synced transfer, as the root prover, one folding step per transfer", async () => {
    expect(provedIndex).toBe(4);
    const verifier = { address: deployment.verifier, abi: zerc20VerifierAbi } as const;
    expect(await client().readContract({ ...verifier, functionName: "latestProvedIndex" })).toBe(4n);
    expect(await client().readContract({ ...verifier, functionName: "latestReservedIndex" })).toBe(4n);
    const [proved] = await client().getContractEvents({ ...verifier, eventName: "TransferRootProved", fromBlock: 0n, strict: true });
    const transaction = await client().getTransaction({ hash: proved!.transactionHash });
    expect(getAddress(transaction.from)).toBe(accounts.rootProver.address);
    const call = decodeFunctionData({ abi: zerc20VerifierAbi, data: transaction.input });
    if (call.functionName !== "proveTransferRoot") return expect.fail(`the root was proved by ${call.functionName}`);
    const rootProof = decodeRootProof(call.args[0]);
    expect({ steps: rootProof.steps, oldIndex: rootProof.old.index, newIndex: rootProof.new.index }).toEqual({ steps: 4n, oldIndex: 0n, newIndex: 4n });
    expect(rootProof.new.root).toBe(proved!.args.root);
    expect(await indexer.proveNow()).toBeUndefined();
  });

  it("/events answers the chain's IndexedTransfer logs in the published JSON", async () => {
    const logs = await client().getContractEvents({
      address: deployment.token,
      abi: zerc20TokenAbiV1,
      eventName: "IndexedTransfer",
      fromBlock: 0n,
      strict: true,
    });
    const answer = await getJson(`${indexer.url}/events?${query()}&to=${BURN_ADDRESS.toLowerCase()}`);
    expect(answer.status).toBe(200);
    const toBurn = logs.filter((log) => log.args.to === BURN_ADDRESS);
    expect(answer.body).toEqual(
      toBurn.map((log) => ({
        event_index: Number(log.args.index),
        from: log.args.from,
        to: BURN_ADDRESS,
        value: `0x${log.args.value.toString(16)}`,
        eth_block_number: Number(log.blockNumber),
      })),
    );
    expect(IndexerEventsSchema.parse(answer.body).map((event) => event.value)).toEqual([7n, 5n]);
    const limited = await getJson(`${indexer.url}/events?${query()}&limit=1`);
    expect((limited.body as unknown[]).length).toBe(1);
    expect((await getJson(`${indexer.url}/events?${query()}&limit=1001`)).status).toBe(400);
    expect((await getJson(`${indexer.url}/events?chain_id=${deployment.chainId}&token_address=${BURN_ADDRESS}`)).status).toBe(404);
  });

  it("/proofs paths verify with the version's leaf against the proved root, and /tree-index finds that root", async () => {
    const events = IndexerEventsSchema.parse((await getJson(`${indexer.url}/events?${query()}&to=${BURN_ADDRESS}`)).body);
    const answer = await postJson(
      `${indexer.url}/proofs`,
      proofsRequest(
        4,
        events.map((event) => Number(event.event_index)),
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/"target_index":4,"leaf_index":2,"root":"0x[1-9a-f][0-9a-f]*"/);
    const proofs = IndexerProofsSchema.parse(answer.body);
    const verifier = { address: deployment.verifier, abi: zerc20VerifierAbi } as const;
    const provedRoot = await client().readContract({ ...verifier, functionName: "provedTransferRoots", args: [4n] });
    const reservedHashChain = await client().readContract({ ...verifier, functionName: "reservedHashChains", args: [4n] });
    proofs.forEach((proof, i) => {
      const event = events[i]!;
      expect(proof).toMatchObject({ target_index: 4n, leaf_index: event.event_index, root: provedRoot, hash_chain: reservedHashChain });
      const leaf = protocol.transferLeaf(event);
      expect(verifyMerklePath({ leaf, leafIndex: proof.leaf_index, siblings: proof.siblings, root: provedRoot })).toBe(true);
      expect(verifyMerklePath({ leaf: leaf + 1n, leafIndex: proof.leaf_index, siblings: proof.siblings, root: provedRoot })).toBe(false);
    });
    const treeIndex = await getJson(`${indexer.url}/tree-index?${query()}&transfer_root=0x${provedRoot.toString(16)}`);
    expect(treeIndex).toMatchObject({ status: 200, body: { tree_index: 4 } });
    expect(IndexerTreeIndexSchema.parse(treeIndex.body).tree_index).toBe(4n);
    expect((await getJson(`${indexer.url}/tree-index?${query()}&transfer_root=0x1234`)).status).toBe(404);
  });

  it("/proofs refuses hex-string indexes, a leaf not below the target, and a target beyond the synced transfers", async () => {
    expect((await postJson(`${indexer.url}/proofs`, proofsRequest(4, ["0x2"]))).status).toBe(400);
    expect((await postJson(`${indexer.url}/proofs`, { ...proofsRequest(4, [2]), target_index: "0x4" })).status).toBe(400);
    expect((await postJson(`${indexer.url}/proofs`, proofsRequest(1, [1]))).status).toBe(400);
    expect((await postJson(`${indexer.url}/proofs`, proofsRequest(5, [1]))).status).toBe(400);
    const notJson = await fetch(`${indexer.url}/proofs`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
  });

  it(`/proofs takes ${INDEXER_MAX_PROOF_LEAVES} leaves, and one more only under v1`, async () => {
    const atCap = await postJson(`${indexer.url}/proofs`, proofsRequest(4, new Array(INDEXER_MAX_PROOF_LEAVES).fill(0)));
    expect(atCap.status).toBe(200);
    const overCap = await postJson(`${indexer.url}/proofs`, proofsRequest(4, new Array(INDEXER_MAX_PROOF_LEAVES + 1).fill(0)));
    expect(overCap.status).toBe(version === "zerc20-v2" ? 400 : 200);
  });

  it("/status reports numbers, and null for the IVC index it never generates", async () => {
    const answer = await getJson(`${indexer.url}/status`);
    expect(answer.body).toEqual([
      {
        label: "fixture",
        chain_id: 31337,
        token_address: deployment.token,
        verifier_address: deployment.verifier,
        onchain_reserved_index: 4,
        onchain_proved_index: 4,
        events_synced_index: 4,
        tree_synced_index: 4,
        ivc_generated_index: null,
      },
    ]);
    expect(IndexerStatusSchema.parse(answer.body)[0]?.onchain_proved_index).toBe(4n);
  });

  it("/healthz answers 200 with an empty body", async () => {
    expect(await getJson(`${indexer.url}/healthz`)).toEqual({ status: 200, text: "", body: undefined });
  });

  it("/all-events lists transfers to several recipients under v2 only", async () => {
    const recipients = `recipients[]=${BURN_ADDRESS}&recipients[]=${accounts.payer.address}`;
    const answer = await getJson(`${indexer.url}/all-events?${recipients}&limit=1`);
    if (version === "zerc20-v1") {
      expect(answer.status).toBe(404);
      return;
    }
    expect(answer.status).toBe(200);
    const events = IndexerEventsSchema.parse(answer.body);
    expect(events.map((event) => [event.to, event.event_index])).toEqual([
      [accounts.payer.address, 0n],
      [BURN_ADDRESS, 2n],
    ]);
    expect(answer.body).toEqual(expect.arrayContaining([expect.objectContaining({ chain_id: 31337, token_address: deployment.token })]));
    const tooMany = Array.from({ length: 101 }, (_, i) => `recipients[]=0x${(i + 1).toString(16).padStart(40, "0")}`).join("&");
    expect((await getJson(`${indexer.url}/all-events?${tooMany}`)).status).toBe(400);
    expect((await getJson(`${indexer.url}/all-events?limit=5`)).status).toBe(400);
  });
});

describe("fixture indexer zerc20-v2 with a prover off the allow-list", () => {
  let anvil: StartAnvilReturnType;

  beforeAll(async () => {
    anvil = await startAnvil();
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it("fails its root job with the verifier's UnauthorizedProver", async () => {
    const deployment = await deployContracts({ rpcUrl: anvil.rpcUrl, accounts });
    const indexer = await startIndexer({
      rpcUrl: anvil.rpcUrl,
      chainId: deployment.chainId,
      token: deployment.token,
      verifier: deployment.verifier,
      rootProverKey: accounts.payer2.privateKey,
      fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
      rootIntervalMs: 0,
    });
    try {
      await expect(indexer.proveNow()).rejects.toThrow(/UnauthorizedProver/);
    } finally {
      await indexer.close();
    }
  });
});
