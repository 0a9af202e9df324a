import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeFixtureProof, signFixtureProof, transferLeaf, verifyMerklePath, zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import { createPublicClient, createWalletClient, hexToBigInt, http, parseEther, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type RunningStack } from "./startStack.js";

let stack: RunningStack;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "stack-test-"));
  stack = await startStack({ dir, rootIntervalMs: 0 });
});

afterAll(async () => {
  await stack?.stop();
  await rm(dir, { recursive: true, force: true });
});

const client = () => createPublicClient({ chain: foundry, transport: http(stack.deployment.rpcUrl) });

async function transfer(to: Address, value: bigint): Promise<void> {
  const payer = privateKeyToAccount(stack.deployment.accounts.payer.privateKey);
  const wallet = createWalletClient({ chain: foundry, transport: http(stack.deployment.rpcUrl), account: payer });
  const hash = await wallet.writeContract({
    address: stack.deployment.token,
    abi: zerc20TokenAbi,
    functionName: "transfer",
    args: [to, value],
  });
  const receipt = await client().waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}

const getJson = async (url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> => {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
};

const post = (url: string, body: unknown) => getJson(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("startStack", () => {
  it("writes the deployment file and a ready facilitator config", async () => {
    const deployment = JSON.parse(await readFile(stack.files.deployment, "utf8")) as Record<string, unknown>;
    for (const key of [
      "rpcUrl",
      "chainId",
      "token",
      "verifier",
      "hub",
      "permitBurner",
      "feeSplitter",
      "usdc3009",
      "indexerUrl",
      "deciderUrl",
      "fixtureProverKey",
      "accounts",
    ]) {
      expect(deployment).toHaveProperty(key);
    }
    expect(Object.keys(stack.deployment.accounts)).toEqual(expect.arrayContaining(["deployer", "treasury", "relayer", "payer", "payer2", "feeRecipient"]));
    const toml = await readFile(stack.files.facilitatorToml, "utf8");
    expect(toml).toContain('profile = "local"');
    expect(toml).toContain(`permit_burner = "${stack.deployment.permitBurner}"`);
    expect(toml).toContain("finalize_interval_ms = 1000");
    const env = await readFile(stack.files.facilitatorEnv, "utf8");
    expect(env).toContain(`SVC_TREASURY_PK=${stack.deployment.accounts.treasury.privateKey}`);
    expect(env).toMatch(/^SVC_ADMIN_TOKEN=[0-9a-f]{64}$/m);
  });

  it("funds both payers with zERC20", async () => {
    for (const name of ["payer", "payer2"] as const) {
      const balance = await client().readContract({
        address: stack.deployment.token,
        abi: zerc20TokenAbi,
        functionName: "balanceOf",
        args: [stack.deployment.accounts[name].address],
      });
      expect(balance).toBe(parseEther("1000000"));
    }
  });
});

describe("fixture indexer", () => {
  const burnAddress: Address = "0x00000000000000000000000000000000000b0057";
  const query = () => `chain_id=${stack.deployment.chainId}&token_address=${stack.deployment.token}`;

  beforeAll(async () => {
    await transfer(burnAddress, 7n);
    await transfer(burnAddress, 5n);
    await stack.indexer.proveNow();
  });

  it("/events agrees with the chain's IndexedTransfer logs", async () => {
    const logs = await client().getContractEvents({
      address: stack.deployment.token,
      abi: zerc20TokenAbi,
      eventName: "IndexedTransfer",
      fromBlock: 0n,
      strict: true,
    });
    const { status, body } = await getJson(`${stack.deployment.indexerUrl}/events?${query()}&to=${burnAddress}`);
    expect(status).toBe(200);
    const expected = logs
      .filter((log) => log.args.to.toLowerCase() === burnAddress)
      .map((log) => ({ event_index: `0x${log.args.index.toString(16)}`, value: `0x${log.args.value.toString(16)}` }));
    expect(expected).toHaveLength(2);
    expect((body as { event_index: string; value: string }[]).map(({ event_index, value }) => ({ event_index, value }))).toEqual(expected);
  });

  it("/proofs paths verify against the root the verifier proved, and /tree-index finds it", async () => {
    const verifier = { address: stack.deployment.verifier, abi: zerc20VerifierAbi } as const;
    const provedIndex = await client().readContract({ ...verifier, functionName: "latestProvedIndex" });
    const provedRoot = await client().readContract({ ...verifier, functionName: "provedTransferRoots", args: [provedIndex] });
    const events = (await getJson(`${stack.deployment.indexerUrl}/events?${query()}&to=${burnAddress}`)).body as {
      event_index: Hex;
      value: Hex;
    }[];
    const { status, body } = await post(`${stack.deployment.indexerUrl}/proofs`, {
      chain_id: stack.deployment.chainId,
      token_address: stack.deployment.token,
      target_index: Number(provedIndex),
      leaf_indices: events.map((event) => Number(hexToBigInt(event.event_index))),
    });
    expect(status).toBe(200);
    const proofs = body as { leaf_index: Hex; root: Hex; siblings: Hex[] }[];
    expect(proofs).toHaveLength(2);
    proofs.forEach((proof, i) => {
      expect(hexToBigInt(proof.root)).toBe(provedRoot);
      expect(proof.siblings).toHaveLength(40);
      const leaf = transferLeaf(burnAddress, hexToBigInt(events[i]!.value));
      const siblings = proof.siblings.map((sibling) => hexToBigInt(sibling));
      expect(verifyMerklePath({ leaf, leafIndex: hexToBigInt(proof.leaf_index), siblings, root: provedRoot })).toBe(true);
      expect(verifyMerklePath({ leaf: leaf + 1n, leafIndex: hexToBigInt(proof.leaf_index), siblings, root: provedRoot })).toBe(false);
    });
    const treeIndex = await getJson(`${stack.deployment.indexerUrl}/tree-index?${query()}&transfer_root=${proofs[0]!.root}`);
    expect(treeIndex).toEqual({ status: 200, body: { tree_index: `0x${provedIndex.toString(16)}` } });
    const unknown = await getJson(`${stack.deployment.indexerUrl}/tree-index?${query()}&transfer_root=0x1234`);
    expect(unknown.status).toBe(404);
  });

  it("refuses a leaf that is not below the target index, and another token", async () => {
    const beyond = await post(`${stack.deployment.indexerUrl}/proofs`, {
      chain_id: stack.deployment.chainId,
      token_address: stack.deployment.token,
      target_index: 1,
      leaf_indices: [1],
    });
    expect(beyond.status).toBe(400);
    const otherToken = await getJson(`${stack.deployment.indexerUrl}/events?chain_id=${stack.deployment.chainId}&token_address=${burnAddress}`);
    expect(otherToken.status).toBe(404);
  });

  it("/status reports the synced and proved indexes", async () => {
    const { body } = await getJson(`${stack.deployment.indexerUrl}/status`);
    const [status] = body as { events_synced_index: number; onchain_proved_index: number; chain_id: number }[];
    expect(status?.chain_id).toBe(31337);
    expect(status?.onchain_proved_index).toBe(status?.events_synced_index);
  });
});

describe("fixture decider", () => {
  const waitForJob = async (id: string): Promise<{ status: string; result?: string; error?: string }> => {
    for (;;) {
      const { body } = await getJson(`${stack.deployment.deciderUrl}/jobs/${id}`);
      const job = body as { status: string; result?: string; error?: string };
      if (job.status === "completed" || job.status === "failed") return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const ivcProof = async (privateKey: Hex) =>
    Buffer.from(
      (
        await signFixtureProof({
          privateKey,
          circuit: "ivc_withdraw_local",
          chainId: 31337n,
          publicInputs: [1n, 2n, 3n],
        })
      ).slice(2),
      "hex",
    ).toString("base64");

  it("turns a fixture IVC proof into the on-chain withdraw proof over the same public inputs", async () => {
    const created = await post(`${stack.deployment.deciderUrl}/jobs`, {
      job_id: "job-1",
      circuit: "withdraw_local",
      ivc_proof: await ivcProof(stack.deployment.fixtureProverKey),
    });
    expect(created.status).toBe(202);
    const again = await post(`${stack.deployment.deciderUrl}/jobs`, { job_id: "job-1", circuit: "withdraw_local", ivc_proof: "AA==" });
    expect(again.status).toBe(200);
    const job = await waitForJob("job-1");
    expect(job.status).toBe("completed");
    const proof = `0x${Buffer.from(job.result ?? "", "base64").toString("hex")}` as Hex;
    expect(decodeFixtureProof(proof).publicInputs).toEqual([1n, 2n, 3n]);
  });

  it("fails a job whose IVC proof is signed by another key", async () => {
    await post(`${stack.deployment.deciderUrl}/jobs`, {
      job_id: "job-2",
      circuit: "withdraw_local",
      ivc_proof: await ivcProof(stack.deployment.accounts.payer.privateKey),
    });
    const job = await waitForJob("job-2");
    expect(job).toMatchObject({ status: "failed", error: expect.stringContaining("not signed by the fixture key") });
    expect((await getJson(`${stack.deployment.deciderUrl}/jobs/nope`)).status).toBe(404);
  });
});
