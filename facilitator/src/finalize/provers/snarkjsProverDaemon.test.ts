/**
 * A real daemon on a local stack of real single-teleport proofs, configured by the stack itself (`[prover]
 * kind = "snarkjs"` with the circuit's files), its indexer reached through a proxy that can serve wrong Merkle
 * paths. A payment is minted with a real Groth16 proof of its height-40 path, which the exported verifier
 * accepts; a payment of two transfers takes the fixture batch path through the decider; and the payments
 * whose paths the proxy corrupts (two siblings swapped, the path of the leaf before) are refused by the
 * circuit on three passes, then failed as `witness_rejected`, visible in the log, the metric and `status`,
 * without failing a single pass for the others. No burn secret reaches the log.
 */
import { zerc20TokenAbi } from "@svc/scheme";
import { createHash } from "node:crypto";
import { hexToBigInt, isAddressEqual, parseEventLogs, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchDaemonStatus } from "../../operator/fetchDaemonStatus.js";
import { formatDaemonStatus } from "../../operator/formatDaemonStatus.js";
import { WithdrawalWitnessSchema } from "../../operator/withdrawalWitness.js";
import { startCorruptingIndexerProxy, type CorruptingIndexerProxy, type PathCorruption } from "../../testing/corruptingIndexerProxy.js";
import {
  adminGet,
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  waitForState,
  type TestDaemon,
  type TestStack,
} from "../../testing/localFacilitator.js";
import { fixtureProofLike, mintedProof, singleVerifierAccepts } from "../../testing/mintedProof.js";
import { parsePrometheusText } from "../../testing/parsePrometheusText.js";
import { WITNESS_REJECTION_LIMIT } from "../finalizeReasons.js";

let stack: TestStack;
let proxy: CorruptingIndexerProxy;
let daemon: TestDaemon;
const payer = () => stack.deployment.accounts.payer.privateKey;

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300, singleTeleportVerifier: "groth16" });
  proxy = await startCorruptingIndexerProxy(stack.deployment.indexerUrl);
  // The corrupted paths come from the indexer: the test needs the indexer's witnesses, not the followed tree's.
  daemon = await startTestDaemon(stack, "snarkjs-prover", {
    network: { indexer_url: proxy.url },
    daemon: { finalize_interval_ms: 1000 },
    finalize: { witnesses: "indexer" },
  });
}, 600_000);

afterAll(async () => {
  await daemon?.stop();
  await proxy?.close();
  await stack?.close();
});

/** The leaf index of the burn's transfer into the offer's burn address. */
async function leafOf(burnTxHash: Hex, payTo: Hex): Promise<bigint> {
  const receipt = await stack.client.getTransactionReceipt({ hash: burnTxHash });
  const [transfer] = parseEventLogs({ abi: zerc20TokenAbi, eventName: "IndexedTransfer", logs: receipt.logs }).filter((log) =>
    isAddressEqual(log.args.to, payTo),
  );
  if (transfer === undefined) throw new Error("the burn made no transfer to the burn address");
  return transfer.args.index;
}

/** Pays an offer by self-transfer: an optional earlier part, the burn, then `/settle`; `corrupt` is set before the settle. */
async function pay(list: string, options: { part?: bigint; corrupt?: PathCorruption } = {}) {
  const requirements = await requestOffer(daemon, list);
  if (options.part !== undefined) await broadcastBurn(stack, requirements, payer(), options.part);
  const burnTxHash = await broadcastBurn(stack, requirements, payer());
  const leaf = await leafOf(burnTxHash, requirements.payTo);
  if (options.corrupt !== undefined) proxy.corrupt(leaf, options.corrupt);
  const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
  expect(settled.body.success).toBe(true);
  return { nonce: requirements.extra.challengeNonce, leaf };
}

/** The daemon's log events (parsed JSON lines) named `event`. */
function events(event: string): Record<string, unknown>[] {
  return daemon.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.event === event);
}

describe("the snarkjs prover on a real daemon", () => {
  it("mints with a real proof, takes the batch path for two transfers, and fails each corrupted witness after three refusals", async () => {
    expect(events("started")[0]).toMatchObject({ prover: "snarkjs" });
    const single = await pay("100000");
    const batch = await pay("200000", { part: 777n });
    const swapped = await pay("300000", { corrupt: "swap-siblings" });
    const neighbour = await pay("400000", { corrupt: "neighbour-path" });

    const minted = await waitForState(stack, daemon, single.nonce, "finalized", 120_000);
    const { functionName, proof } = await mintedProof(stack, minted.mintTxHash);
    expect(functionName).toBe("singleTeleport");
    expect(await singleVerifierAccepts(stack, proof)).toBe(true);
    expect(await singleVerifierAccepts(stack, await fixtureProofLike(stack, proof))).toBe(false);

    const batched = await waitForState(stack, daemon, batch.nonce, "finalized", 120_000);
    expect((await mintedProof(stack, batched.mintTxHash)).functionName).toBe("teleport");

    for (const { nonce, leaf } of [swapped, neighbour]) {
      const failed = await waitForState(stack, daemon, nonce, "failed", 120_000);
      expect(failed.reason).toBe("witness_rejected");
      expect(proxy.corrupted(leaf)).toBeGreaterThanOrEqual(WITNESS_REJECTION_LIMIT);
      const waits = events("finalize_waiting").filter((entry) => entry.challenge_nonce === nonce);
      expect(waits.map((entry) => [entry.level, entry.reason])).toEqual(Array(WITNESS_REJECTION_LIMIT - 1).fill(["warn", "witness_rejected"]));
      const [failure] = events("payment_failed").filter((entry) => entry.challenge_nonce === nonce);
      expect(failure).toMatchObject({ reason: "witness_rejected" });
      expect(failure?.detail).toMatch(
        new RegExp(
          `^The circuit refuses the witness of this single proof \\(a constraint of SingleTeleport line \\d+ fails\\): no proof of it exists; refused on ${WITNESS_REJECTION_LIMIT} of at most ${WITNESS_REJECTION_LIMIT} passes$`,
        ),
      );
    }
    // A refused witness is the payment's, not the prover's trouble: no pass failed.
    expect(events("finalize_pass_failed")).toEqual([]);
    // A failed payment is not tried again: two more passes ask the indexer for neither path.
    const served = [swapped, neighbour].map(({ leaf }) => proxy.corrupted(leaf));
    await daemon.finalizeOnce();
    await daemon.finalizeOnce();
    expect([swapped, neighbour].map(({ leaf }) => proxy.corrupted(leaf))).toEqual(served);

    const metrics = await fetch(`${daemon.url}/metrics`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
    const failures = parsePrometheusText(await metrics.text()).find(
      (sample) => sample.name === "facilitator_finalize_failures_total" && sample.labels.reason === "witness_rejected",
    );
    expect(failures?.value).toBe(2);
    const status = formatDaemonStatus(await fetchDaemonStatus({ url: daemon.url, adminToken: stack.env.SVC_ADMIN_TOKEN, limit: 20, timeoutMs: 5_000 }));
    expect(status).toContain("failed entries: 2\n");
    for (const { nonce } of [swapped, neighbour]) expect(status).toContain(`  ${nonce} self-transfer`);
    expect(status.match(/: witness_rejected$/gm)).toHaveLength(2);

    const log = daemon.logs.join("\n").toLowerCase();
    for (const { nonce } of [single, batch, swapped, neighbour]) {
      const witness = WithdrawalWitnessSchema.parse(await adminGet(stack, daemon, `/admin/withdrawal-witness/${nonce}`));
      expect(log).not.toContain(witness.secret.slice(2).toLowerCase());
      expect(log).not.toContain(hexToBigInt(witness.secret as Hex).toString());
    }
  }, 240_000);
});

describe("profile testnet with a real prover", () => {
  it("issues offers, accepts a payment and mints it with a real proof, under keys that are not development keys", async () => {
    const treasuryKey = generatePrivateKey();
    const relayerKey = generatePrivateKey();
    // Profile testnet requires a minter key of its own; it sends the mint, so it needs gas too.
    const minterKey = generatePrivateKey();
    const treasury = privateKeyToAccount(treasuryKey).address;
    for (const address of [treasury, privateKeyToAccount(relayerKey).address, privateKeyToAccount(minterKey).address]) {
      await stack.client.request({ method: "anvil_setBalance" as never, params: [address, "0x56bc75e2d63100000"] as never });
    }
    // Outside profile local every caller of the money endpoints is a named provider.
    const providerKey = "testnet-provider-key-0123456789abcdef";
    const auth = { authorization: `Bearer ${providerKey}` };
    const testnet = await startTestDaemon(
      stack,
      "snarkjs-testnet",
      {
        profile: "testnet",
        fee: null,
        settlement: { treasury },
        providers: { shop: { key_sha256: createHash("sha256").update(providerKey).digest("hex") } },
        daemon: { finalize_interval_ms: 1000 },
        // Testnet's default is the recommended policy (minutes); this test is about the prover, not the schedule.
        finalize: { min_delay_seconds: 0, max_delay_seconds: 0, min_anonymity_set: 1 },
      },
      { ...stack.env, SVC_TREASURY_PK: treasuryKey, SVC_RELAYER_PK: relayerKey, SVC_MINTER_PK: minterKey },
    );
    try {
      expect(testnet.logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.event === "started")).toMatchObject({
        profile: "testnet",
        prover: "snarkjs",
      });
      expect(((await (await fetch(`${testnet.url}/supported`)).json()) as { kinds: unknown[] }).kinds).toHaveLength(1);
      const requirements = await requestOffer(testnet, "250000", auth);
      const burnTxHash = await broadcastBurn(stack, requirements, payer());
      const body = facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash });
      expect((await postJson(`${testnet.url}/settle`, body, auth)).body).toMatchObject({
        success: true,
        transaction: burnTxHash,
        extra: { phase: "accepted" },
      });
      const minted = await waitForState(stack, testnet, requirements.extra.challengeNonce, "finalized", 120_000);
      const { functionName, proof } = await mintedProof(stack, minted.mintTxHash);
      expect(functionName).toBe("singleTeleport");
      expect(await singleVerifierAccepts(stack, proof)).toBe(true);
      expect(await balanceOf(stack, treasury)).toBe(250_000n);
    } finally {
      await testnet.stop();
    }
  }, 240_000);
});
