/**
 * Two facilitator processes on one PostgreSQL database, reached round-robin: a paid request through the demo
 * provider in front of them gets its offer from one instance and is settled by the other; an offer issued by
 * one settles through the other, concurrent settles of one payment burn once, and an instance SIGKILLed in the middle
 * of a permit settle or of a finalize pass loses nothing: every payment ends accepted and finalized with
 * one burn and one mint. Real processes (`facilitator/dist/cli.js`), a real anvil (automine off to hold a
 * relayed burn or a mint in the mempool), a real PostgreSQL server.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import {
  FACILITATOR_CLI,
  startFacilitatorProcess,
  startProviderProcess,
  startRoundRobin,
  waitFor,
  type FacilitatorProcess,
  type ProviderProcess,
  type RoundRobin,
} from "@svc/anvil-fixtures";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
  permitBurnerAbi,
  selectSchemeRequirements,
  zerc20Protocol,
  type PaymentRequirements,
} from "@svc/scheme";
import type pg from "pg";
import { openTestPool } from "../testing/openTestPool.js";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestStack,
  writeConfigVariant,
  type TestStack,
} from "../testing/localFacilitator.js";

const run = promisify(execFile);

let stack: TestStack;
let server: RunningPostgres;
let database: pg.Pool;
let configPath: string;
let env: Record<string, string>;
let password: string;
let serverStopped = false;
const running: FacilitatorProcess[] = [];
const proxies: RoundRobin[] = [];
let provider: ProviderProcess | undefined;

beforeAll(async () => {
  [stack, server] = await Promise.all([startTestStack({ rootIntervalMs: 300 }), startPostgres()]);
  const url = new URL(await server.createDatabase());
  database = openTestPool(url.toString(), { max: 2 });
  // The password travels apart from the URL, as an operator's would.
  password = decodeURIComponent(url.password);
  url.password = "";
  env = { ...stack.env, SVC_STORAGE_PASSWORD: password };
  configPath = await writeConfigVariant(stack, "shared", {
    storage: { url: url.toString(), max_connections: 4, finalize_lease_ms: 2_000 },
    settlement: { journal: "shared.journal.jsonl", permit_receipt_timeout_ms: 1_000 },
    daemon: { burn_address_pool_size: 2, burn_address_workers: 1, finalize_interval_ms: 1_000 },
  });
}, 120_000);

afterAll(async () => {
  await provider?.stop();
  for (const proxy of proxies) await proxy.stop();
  for (const process of running) await process.stop("SIGKILL");
  if (!serverStopped) await database?.end();
  await Promise.all([stack?.close(), serverStopped ? undefined : server?.stop()]);
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [FACILITATOR_CLI, ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function startInstance(): Promise<FacilitatorProcess> {
  const started = await startFacilitatorProcess({ configPath, env });
  running.push(started);
  return started;
}

const settle = (url: string, body: unknown) => postJson(`${url}/settle`, body);

async function burnsTo(requirements: PaymentRequirements): Promise<Hex[]> {
  const events = await stack.client.getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    fromBlock: 0n,
    strict: true,
  });
  return events.filter((event) => event.args.burnAddress.toLowerCase() === requirements.payTo.toLowerCase()).map((event) => event.transactionHash);
}

async function mintCount(): Promise<number> {
  const to = stack.deployment.accounts.treasury.address;
  const logs = await stack.client.getLogs({
    address: stack.deployment.verifier,
    event: zerc20Protocol(stack.deployment.protocol).teleportEvent,
    args: { to },
    fromBlock: 0n,
  });
  return logs.length;
}

function waitForState(instance: FacilitatorProcess, challengeNonce: string, state: string): Promise<unknown> {
  return waitFor(
    async () => {
      const response = await fetch(`${instance.url}/admin/settlements?state=${state}`, { headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` } });
      const { settlements } = (await response.json()) as { settlements: { challengeNonce: string }[] };
      return settlements.find((entry) => entry.challengeNonce === challengeNonce);
    },
    { what: `${challengeNonce} ${state}`, timeoutMs: 40_000, intervalMs: 250 },
  );
}

function waitForLine(instance: FacilitatorProcess, marker: string): Promise<string> {
  return waitFor(() => instance.lines.find((line) => line.includes(marker)), { what: `a log line with ${marker}`, timeoutMs: 20_000, intervalMs: 50 });
}

const relayer = () => stack.deployment.accounts.relayer.address;

type PoolTransaction = { from: string; to: string | null };

/**
 * Mines by hand: automine off, and a block whenever transactions wait and none of them is held, so a test
 * can keep one kind of transaction (a relayed burn, a mint) in the mempool while everything else goes on.
 */
async function startMiner() {
  let hold: (tx: PoolTransaction) => boolean = () => false;
  let holding = false;
  let stopped = false;
  await stack.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
  const loop = (async () => {
    while (!stopped) {
      const pool = (await stack.client.request({ method: "txpool_content" as never, params: [] as never })) as {
        pending: Record<string, Record<string, PoolTransaction>>;
      };
      const waiting = Object.values(pool.pending).flatMap((byNonce) => Object.values(byNonce));
      holding = waiting.some((tx) => hold(tx));
      if (waiting.length > 0 && !holding) await stack.client.request({ method: "evm_mine" as never, params: [] as never });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    hold: (predicate: (tx: PoolTransaction) => boolean) => {
      hold = predicate;
    },
    held: () => holding,
    stop: async () => {
      stopped = true;
      await loop;
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    },
  };
}

describe("facilitator instances sharing PostgreSQL", () => {
  it("start refuses an unmigrated database; check names the schema version; migrate brings it current once", async () => {
    // The one line start prints names the next step.
    await expect(startFacilitatorProcess({ configPath, env })).rejects.toThrow(
      /did not start[\s\S]*schema is at version 0, this facilitator needs \d+: run `svc-facilitator migrate --config/,
    );
    const before = await cli("check", "--config", configPath);
    expect(before.code).toBe(1);
    expect(before.stdout).toMatch(/✗ storage: .*schema at version 0, this facilitator needs \d+: run `svc-facilitator migrate/);

    const migrated = await cli("migrate", "--config", configPath);
    expect(migrated).toMatchObject({ code: 0, stderr: "" });
    expect(migrated.stdout).toMatch(/applied #1/);
    expect((await cli("migrate", "--config", configPath)).stdout).toMatch(/schema already at version/);

    const after = await cli("check", "--config", configPath);
    expect(after.stdout).toMatch(/✓ storage: postgres:\/\/.*: answers; schema at version \d+/);
    expect(after.code).toBe(0);
    expect(`${before.stdout}${migrated.stdout}${after.stdout}${after.stderr}`).not.toContain(password);
  });

  it("issues on one instance, settles on the other, burns once for concurrent settles, survives a SIGKILL mid-finalize and mid-settle", async () => {
    const mintsBefore = await mintCount();
    const miner = await startMiner();
    try {
      const [a, b] = await Promise.all([startInstance(), startInstance()]);
      const live = [a, b];
      const proxy = await startRoundRobin(() => live.map((instance) => instance.url));
      proxies.push(proxy);
      const front = proxy.url;
      for (const instance of live) {
        const ready = (await (await fetch(`${instance.url}/readyz`)).json()) as { components: { journal: { ready: boolean; detail: { storage: string } } } };
        expect(ready.components.journal).toMatchObject({ ready: true, detail: { storage: "postgres" } });
      }

      // The demo provider in front of the round-robin, one paid request end to end. The provider asks
      // /challenge for the 402, then /verify and /settle for the paid request: one request to the front in
      // between makes the settle land on the instance that did not issue the offer.
      provider = await startProviderProcess({ facilitatorUrl: front, price: "1500" });
      const unpaid = await fetch(`${provider.url}/weather`);
      expect(unpaid.status).toBe(402);
      const [sold] = selectSchemeRequirements(decodePaymentRequiredHeader(unpaid.headers.get("payment-required") ?? ""));
      expect(sold).toBeDefined();
      const issuer = live.findIndex((instance) =>
        instance.lines.some((line) => line.includes('"event":"challenge_issued"') && line.includes(sold!.extra.challengeNonce)),
      );
      expect(issuer).toBeGreaterThanOrEqual(0);
      await fetch(`${front}/supported`);
      const signature = encodePaymentSignatureHeader({
        x402Version: 2,
        accepted: sold!,
        payload: { ...(await signPermitPayment(stack, sold!, stack.deployment.accounts.payer2.privateKey)) },
      });
      const paid = await fetch(`${provider.url}/weather`, { headers: { "payment-signature": signature } });
      expect(paid.status).toBe(200);
      expect(await paid.json()).toBeDefined();
      const receipt = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "");
      expect(receipt).toMatchObject({ success: true, extra: { phase: "accepted" } });
      const settler = live.findIndex((instance) =>
        instance.lines.some((line) => line.includes('"event":"payment_accepted"') && line.includes(sold!.extra.challengeNonce)),
      );
      expect(settler).toBe(1 - issuer);
      expect(await burnsTo(sold!)).toEqual([receipt.transaction]);

      const kill = async (instance: FacilitatorProcess) => {
        await instance.stop("SIGKILL");
        live.splice(live.indexOf(instance), 1);
      };

      // The provider's payment is minted first: the hold below must catch the next payment's mint, not this one's.
      await waitForState(live[settler]!, sold!.extra.challengeNonce, "finalized");

      // Round-robin: the offer comes from one instance, the settle lands on the other. Its mint is held in the
      // mempool, and the instance holding the payment's finalize lease dies in the middle of that pass.
      miner.hold((tx) => tx.to?.toLowerCase() === stack.deployment.verifier.toLowerCase() && tx.from.toLowerCase() === relayer().toLowerCase());
      const transferred = await requestOffer({ url: front }, "1000");
      const burnTxHash = await broadcastBurn(stack, transferred, stack.deployment.accounts.payer.privateKey);
      expect((await settle(front, facilitatorBody(transferred, { challengeNonce: transferred.extra.challengeNonce, burnTxHash }))).body).toMatchObject({
        success: true,
        transaction: burnTxHash,
      });
      await waitFor(() => (miner.held() ? true : undefined), { what: "the mint broadcast and held", timeoutMs: 30_000, intervalMs: 100 });
      const { rows } = await database.query<{ owner: string }>("select owner from finalize_queue where challenge_nonce = $1 and owner is not null", [
        transferred.extra.challengeNonce.toLowerCase(),
      ]);
      const leaseHolder = live.find((instance) => rows[0] !== undefined && instance.child.pid === Number(rows[0].owner.split("/")[1]));
      expect(leaseHolder).toBeDefined();
      await kill(leaseHolder!);
      miner.hold(() => false);
      await waitForState(live[0]!, transferred.extra.challengeNonce, "finalized");

      const c = await startInstance();
      live.push(c);
      const [x, y] = live as [FacilitatorProcess, FacilitatorProcess];

      // One permit payment settled on both instances at once: one burn, both end with the accepted answer.
      const permitted = await requestOffer({ url: front }, "2000");
      const permitBody = facilitatorBody(permitted, await signPermitPayment(stack, permitted, stack.deployment.accounts.payer2.privateKey));
      await Promise.all([settle(x.url, permitBody), settle(y.url, permitBody)]);
      for (const instance of [x, y]) {
        const answer = await waitFor(
          async () => {
            const { body } = await settle(instance.url, permitBody);
            return body.success === true ? body : undefined;
          },
          { what: "the accepted answer on every instance", timeoutMs: 30_000, intervalMs: 250 },
        );
        expect(answer).toMatchObject({ extra: { phase: "accepted" } });
      }
      expect(await burnsTo(permitted)).toHaveLength(1);
      // Its mint lands first: a mint still in the mempool when the hold below starts would be mined together
      // with the relayed burn the hold must keep back.
      await waitForState(x, permitted.extra.challengeNonce, "finalized");

      // SIGKILL in the middle of a permit settle: the relayed burn is held in the mempool, its instance dies.
      const interrupted = await requestOffer({ url: x.url }, "3000");
      const interruptedBody = facilitatorBody(interrupted, await signPermitPayment(stack, interrupted, stack.deployment.accounts.payer.privateKey));
      miner.hold((tx) => tx.to?.toLowerCase() === stack.deployment.permitBurner.toLowerCase());
      const lost = settle(x.url, interruptedBody).catch(() => undefined);
      const broadcast = JSON.parse(await waitForLine(x, `"event":"permit_burn_broadcast","challenge_nonce":"${interrupted.extra.challengeNonce}"`)) as {
        burn_tx: Hex;
      };
      await kill(x);
      await lost;
      // The survivor names the relayed burn its peer journaled before the broadcast.
      expect((await settle(y.url, interruptedBody)).body).toMatchObject({ success: false, errorReason: "pending_burn", transaction: broadcast.burn_tx });
      miner.hold(() => false);
      await waitFor(async () => ((await burnsTo(interrupted)).length > 0 ? true : undefined), {
        what: "the relayed burn mined",
        timeoutMs: 10_000,
        intervalMs: 100,
      });
      // Once the dead instance's settle claim has run out, an instance starting on the database takes the open
      // intent over and reconciles it to accepted from the chain, before any re-send.
      await waitFor(
        async () => {
          const { rows: claims } = await database.query<{ expired: boolean }>(
            "select lease_until < now() as expired from settle_claims where challenge_nonce = $1",
            [interrupted.extra.challengeNonce.toLowerCase()],
          );
          return claims[0]?.expired === true ? true : undefined;
        },
        { what: "the dead instance's settle claim expired", timeoutMs: 30_000, intervalMs: 250 },
      );
      const d = await startInstance();
      expect(JSON.parse(await waitForLine(d, '"event":"intents_resumed"'))).toMatchObject({ claimed: 1, left: 0 });
      expect(JSON.parse(await waitForLine(d, '"event":"intents_reconciled"'))).toMatchObject({ accepted: 1 });
      const recovered = await settle(y.url, interruptedBody);
      expect(recovered.body).toMatchObject({ success: true, transaction: broadcast.burn_tx });
      expect(await burnsTo(interrupted)).toEqual([broadcast.burn_tx]);

      const payments = [sold!, transferred, permitted, interrupted].map((requirements) => requirements.extra.challengeNonce);
      for (const challengeNonce of payments) await waitForState(y, challengeNonce, "finalized");
      await waitFor(
        async () => {
          const { rows: queued } = await database.query<{ count: string }>("select count(*) from finalize_queue");
          return queued[0]!.count === "0" ? true : undefined;
        },
        { what: "the finalize queue drained", timeoutMs: 20_000, intervalMs: 250 },
      );
      expect(await mintCount()).toBe(mintsBefore + payments.length);

      // The database gone: readiness says so, no offer is issued and no settle is taken (503 storage_unavailable).
      const unsettled = await requestOffer({ url: y.url }, "4000");
      const unsettledBody = facilitatorBody(unsettled, await signPermitPayment(stack, unsettled, stack.deployment.accounts.payer2.privateKey));
      await database.end();
      await server.stop();
      serverStopped = true;
      const report = await waitFor(
        async () => {
          const answer = await fetch(`${y.url}/readyz`);
          const body = (await answer.json()) as { components: { journal: { ready: boolean; reason?: string } } };
          return answer.status === 503 ? body : undefined;
        },
        { what: "readiness failing on the database", timeoutMs: 15_000, intervalMs: 250 },
      );
      expect(report.components.journal).toMatchObject({ ready: false, reason: "unreachable" });
      expect((await postJson(`${y.url}/challenge`, { amount: "1000" })).status).toBe(503);
      expect(await settle(y.url, unsettledBody)).toMatchObject({ status: 503, body: { success: false, errorReason: "storage_unavailable" } });
      expect(await burnsTo(unsettled)).toEqual([]);
    } finally {
      await miner.stop();
    }
  }, 180_000);
});
