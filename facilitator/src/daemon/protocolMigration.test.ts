/**
 * Moving a daemon between protocol versions: one anvil holding a zERC20 v1 deployment and a v2 deployment
 * (each with its own fixture indexer), one journal, three daemon runs: on v1, then moved to v2, then back on
 * v1. Nothing in flight is lost across a switch: a payment accepted under v1 stays accepted (neither failed
 * nor finalized under the other version) while the daemon runs v2, an offer issued under v1 and paid while
 * the daemon runs v2 still settles once it is back, and each payment is minted by its own version's verifier,
 * whose fixture prover checks the burn address, its proof of work and the leaf under that version.
 */
import { deployContracts, FIXTURE_PROVER_PRIVATE_KEY, startIndexer, type Deployment, type RunningIndexer } from "@svc/anvil-fixtures";
import type { PaymentRequirements } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  waitForState,
  type ConfigPatch,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";

let stack: TestStack;
let v2: Deployment;
let v2Indexer: RunningIndexer;
const payer = () => stack.deployment.accounts.payer.privateKey;

beforeAll(async () => {
  stack = await startTestStack({ protocol: "zerc20-v1" });
  v2 = await deployContracts({ rpcUrl: stack.deployment.rpcUrl, accounts: stack.deployment.accounts, protocol: "zerc20-v2" });
  v2Indexer = await startIndexer({
    rpcUrl: stack.deployment.rpcUrl,
    chainId: v2.chainId,
    protocol: "zerc20-v2",
    token: v2.token,
    verifier: v2.verifier,
    rootProverKey: stack.deployment.accounts.rootProver.privateKey,
    fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
    rootIntervalMs: 0,
  });
}, 180_000);

afterAll(async () => {
  await v2Indexer?.close();
  await stack?.close();
});

/** Every run keeps the same journal; finalize passes run only on demand. */
const ON_V1: ConfigPatch = { settlement: { journal: "migration.journal.jsonl" }, daemon: { finalize_interval_ms: 600_000 } };
/** The same daemon moved to the v2 deployment on the same chain. */
const onV2 = (): ConfigPatch => ({
  ...ON_V1,
  network: { protocol: "zerc20-v2", token: v2.token, verifier: v2.verifier, hub: v2.hub, indexer_url: v2Indexer.url },
  settlement: { journal: "migration.journal.jsonl", permit_burner: v2.permitBurner },
});

async function settleBySelfTransfer(daemon: TestDaemon, requirements: PaymentRequirements, burnTxHash: `0x${string}`) {
  const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
  return settled.body as { success: boolean; errorReason?: string };
}

async function stateOf(daemon: TestDaemon, challengeNonce: string): Promise<string | undefined> {
  const response = await fetch(`${daemon.url}/admin/settlements`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
  const { settlements } = (await response.json()) as { settlements: { challengeNonce: string; state: string }[] };
  return settlements.find((entry) => entry.challengeNonce === challengeNonce)?.state;
}

describe("moving a daemon between protocol versions", () => {
  it("loses nothing in flight: v1 payments wait out the v2 run and are minted under v1, the v2 payment under v2", async () => {
    const first = await startTestDaemon(stack, "migration-v1", ON_V1);
    let accepted: PaymentRequirements;
    let unpaid: PaymentRequirements;
    try {
      accepted = await requestOffer(first, "4000");
      expect((await settleBySelfTransfer(first, accepted, await broadcastBurn(stack, accepted, payer()))).success).toBe(true);
      unpaid = await requestOffer(first, "5000");
    } finally {
      await first.stop();
    }

    const moved = await startTestDaemon(stack, "migration-v2", onV2());
    let onNewVersion: PaymentRequirements;
    let lateBurn: `0x${string}`;
    try {
      expect(moved.logs.map((line) => JSON.parse(line) as { event: string; protocol?: string }).find((entry) => entry.event === "started")?.protocol).toBe(
        "zerc20-v2",
      );
      onNewVersion = await requestOffer(moved, "6000");
      expect(onNewVersion.asset.toLowerCase()).toBe(v2.token.toLowerCase());
      expect((await settleBySelfTransfer(moved, onNewVersion, await broadcastBurn(stack, onNewVersion, payer()))).success).toBe(true);
      // The v1 payer pays the v1 offer while the daemon runs v2: the money is in flight across the switch.
      lateBurn = await broadcastBurn(stack, unpaid, payer());
      await v2Indexer.proveNow();
      await stack.indexer.proveNow();
      await moved.finalizeOnce();
      await waitForState(stack, moved, onNewVersion.extra.challengeNonce, "finalized", 30_000);
      // The v1 payment is frozen under v2: neither failed nor minted by the other version's verifier.
      expect(await stateOf(moved, accepted.extra.challengeNonce)).toBe("accepted");
    } finally {
      await moved.stop();
    }

    const back = await startTestDaemon(stack, "migration-v1-again", ON_V1);
    try {
      expect((await settleBySelfTransfer(back, unpaid, lateBurn)).success).toBe(true);
      await stack.indexer.proveNow();
      await back.finalizeOnce();
      await waitForState(stack, back, accepted.extra.challengeNonce, "finalized", 30_000);
      await waitForState(stack, back, unpaid.extra.challengeNonce, "finalized", 30_000);
      // The v2 payment stays as the v2 run left it.
      expect(await stateOf(back, onNewVersion.extra.challengeNonce)).toBe("finalized");
      // Offers after the move back are the v1 deployment's again (the stock was derived afresh for v1).
      expect((await requestOffer(back, "7000")).asset.toLowerCase()).toBe(stack.deployment.token.toLowerCase());
    } finally {
      await back.stop();
    }
  }, 180_000);
});
