/**
 * The whole local stack under each protocol version: the files it writes, and a burn that the stack's own root
 * job makes provable, withdrawn through the single path (a fixture Groth16 proof over the indexer's path) and
 * the batch path (the fixture decider's proof), as the facilitator would.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addressToRecipient,
  generalRecipientField,
  IndexerEventsSchema,
  IndexerProofsSchema,
  type ProtocolVersion,
  signFixtureGroth16Proof,
  signFixtureIvcProof,
  verifyMerklePath,
  zerc20Protocol,
  zerc20TokenAbiV1,
  zerc20VerifierAbi,
} from "@svc/scheme";
import { createPublicClient, createWalletClient, getAddress, hexToBytes, http, keccak256, toHex, type Address, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson } from "../http/testing/fetchJson.js";
import { waitFor } from "../world/waitFor.js";
import { startStack, type RunningStack } from "./startStack.js";

/** Receives burns in these tests. With fixture proofs the chain never checks it against R, so any address does. */
const BURN_ADDRESS: Address = getAddress("0x00000000000000000000000000000000000b0057");

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("startStack %s", (version) => {
  const protocol = zerc20Protocol(version);
  let stack: RunningStack;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "stack-test-"));
    stack = await startStack({ dir, protocol: version, rootIntervalMs: 100 });
  });

  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const client = () => createPublicClient({ chain: foundry, transport: http(stack.deployment.rpcUrl) });
  const balanceOf = (owner: Address) =>
    client().readContract({ address: stack.deployment.token, abi: zerc20TokenAbiV1, functionName: "balanceOf", args: [owner] });

  async function burn(value: bigint): Promise<void> {
    const payer = privateKeyToAccount(stack.deployment.accounts.payer.privateKey);
    const wallet = createWalletClient({ chain: foundry, transport: http(stack.deployment.rpcUrl), account: payer });
    const hash = await wallet.writeContract({ address: stack.deployment.token, abi: zerc20TokenAbiV1, functionName: "transfer", args: [BURN_ADDRESS, value] });
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe("success");
  }

  /** Waits until the root job has proved a root over every transfer so far; resolves to that index. */
  async function provedEverything(): Promise<bigint> {
    const index = await client().readContract({ address: stack.deployment.token, abi: zerc20TokenAbiV1, functionName: "index" });
    return waitFor(
      async () => {
        const proved = await client().readContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName: "latestProvedIndex" });
        return proved >= index ? proved : undefined;
      },
      { what: `a proved root over ${index} transfers`, timeoutMs: 10_000, intervalMs: 50 },
    );
  }

  /** Sends a teleport from the relayer and waits for it to succeed. */
  async function relay(
    functionName: "singleTeleport" | "teleport",
    rootHint: bigint,
    gr: { chainId: bigint; recipient: Hex; tweak: Hex },
    proof: Hex,
  ): Promise<void> {
    const relayer = privateKeyToAccount(stack.deployment.accounts.relayer.privateKey);
    const wallet = createWalletClient({ chain: foundry, transport: http(stack.deployment.rpcUrl), account: relayer });
    const hash = await wallet.writeContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName, args: [false, rootHint, gr, proof] });
    expect((await client().waitForTransactionReceipt({ hash })).status).toBe("success");
  }

  it("writes deployment.json with the protocol and decimals, and a facilitator config naming the protocol", async () => {
    const deployment = JSON.parse(await readFile(stack.files.deployment, "utf8")) as Record<string, unknown>;
    expect(deployment).toMatchObject({ protocol: version, decimals: 18, chainId: 31337 });
    for (const key of [
      "rpcUrl",
      "token",
      "verifier",
      "hub",
      "hubEid",
      "rootProver",
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
    const toml = await readFile(stack.files.facilitatorToml, "utf8");
    expect(toml).toContain('profile = "local"');
    expect(toml).toMatch(new RegExp(`\\[network\\][^[]*\\nprotocol = "${version}"\\n`));
    expect(toml).toContain(`hub = "${stack.deployment.hub}"`);
    if (version === "zerc20-v2") expect(toml).toContain(`permit_burner = "${stack.deployment.permitBurner}"`);
    else expect(toml).not.toMatch(/^permit_burner =/m);
    expect(toml).toContain("finalize_interval_ms = 1000");
    const env = await readFile(stack.files.facilitatorEnv, "utf8");
    expect(env).toContain(`SVC_TREASURY_PK=${stack.deployment.accounts.treasury.privateKey}`);
    expect(env).toMatch(/^SVC_ADMIN_TOKEN=[0-9a-f]{64}$/m);
  });

  it("funds both payers with one million zERC20", async () => {
    for (const name of ["payer", "payer2"] as const) {
      expect(await balanceOf(stack.deployment.accounts[name].address)).toBe(1_000_000n * 10n ** 18n);
    }
  });

  it("makes a burn provable by its root job and withdrawable on the single path, then the difference on the batch path", async () => {
    const { deployment } = stack;
    const treasury = deployment.accounts.treasury.address;
    const gr = { chainId: 31337n, recipient: addressToRecipient(treasury), tweak: keccak256(toHex(`stack ${version}`)) };
    const recipientHash = generalRecipientField(gr);
    const query = `chain_id=${deployment.chainId}&token_address=${deployment.token}`;
    await burn(7n);
    await burn(5n);
    const rootHint = await provedEverything();

    const events = IndexerEventsSchema.parse((await getJson(`${deployment.indexerUrl}/events?${query}&to=${BURN_ADDRESS}`)).body);
    const proofs = IndexerProofsSchema.parse(
      (
        await postJson(`${deployment.indexerUrl}/proofs`, {
          chain_id: deployment.chainId,
          token_address: deployment.token,
          target_index: Number(rootHint),
          leaf_indices: events.map((event) => Number(event.event_index)),
        })
      ).body,
    );
    const root = await client().readContract({ address: deployment.verifier, abi: zerc20VerifierAbi, functionName: "provedTransferRoots", args: [rootHint] });
    proofs.forEach((proof, i) => {
      expect(verifyMerklePath({ leaf: protocol.transferLeaf(events[i]!), leafIndex: proof.leaf_index, siblings: proof.siblings, root })).toBe(true);
    });
    const total = events.reduce((sum, event) => sum + event.value, 0n);
    expect(total).toBe(12n);

    const before = await balanceOf(treasury);
    const single = await signFixtureGroth16Proof({ privateKey: deployment.fixtureProverKey, chainId: 31337n, publicInputs: [root, recipientHash, total] });
    await relay("singleTeleport", rootHint, gr, single);
    expect(await balanceOf(treasury)).toBe(before + 12n);

    await burn(3n);
    const batchHint = await provedEverything();
    const batchRoot = await client().readContract({
      address: deployment.verifier,
      abi: zerc20VerifierAbi,
      functionName: "provedTransferRoots",
      args: [batchHint],
    });
    const ivc = await signFixtureIvcProof({
      privateKey: deployment.fixtureProverKey,
      chainId: 31337n,
      circuit: "ivc_withdraw_local",
      proof: { steps: 3n, root: batchRoot, recipientHash, lastLeafPosition: batchHint - 1n, totalValue: 15n },
    });
    const jobId = `stack-${version}`;
    await postJson(`${deployment.deciderUrl}/jobs`, { job_id: jobId, circuit: "withdraw_local", ivc_proof: Buffer.from(hexToBytes(ivc)).toString("base64") });
    const result = await waitFor(
      async () => {
        const job = (await getJson(`${deployment.deciderUrl}/jobs/${jobId}`)).body as { status: string; result?: string };
        expect(job.status).not.toBe("failed");
        return job.status === "completed" ? job.result : undefined;
      },
      { what: "the decider job", timeoutMs: 5_000, intervalMs: 20 },
    );
    await relay("teleport", batchHint, gr, `0x${Buffer.from(result, "base64").toString("hex")}`);
    expect(await balanceOf(treasury)).toBe(before + 15n);
  });

  it("answers the indexer's /all-events only under v2", async () => {
    const answer = await getJson(`${stack.deployment.indexerUrl}/all-events?recipients[]=${BURN_ADDRESS}`);
    expect(answer.status).toBe(version === "zerc20-v2" ? 200 : 404);
  });
});
