/**
 * One facilitator process on PostgreSQL whose database goes away, reached through a TCP forwarder the test
 * cuts: in the middle of a permit settle (the burn is out, its `accepted` record cannot be written), and
 * before a settle starts. `/settle` answers 503 `storage_unavailable` with `Retry-After`, `/verify` answers
 * `storage_unavailable`, `/challenge` 503, never a 500; nothing is accepted while the database is away, and
 * once it is back the same payload settles, on the one burn already made. Real process, anvil and server.
 */
import { startFacilitatorProcess, waitFor, type FacilitatorProcess } from "@svc/anvil-fixtures";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { permitBurnerAbi, type PaymentRequirements } from "@svc/scheme";
import type pg from "pg";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "../storage/postgresMigrations.js";
import { facilitatorBody, postJson, requestOffer, signPermitPayment, startTestStack, writeConfigVariant, type TestStack } from "../testing/localFacilitator.js";
import { openTestPool } from "../testing/openTestPool.js";
import { startStoppableTcpProxy, type StoppableTcpProxy } from "../testing/stoppableTcpProxy.js";

let stack: TestStack;
let server: RunningPostgres;
let database: pg.Pool;
let proxy: StoppableTcpProxy;
let instance: FacilitatorProcess;

beforeAll(async () => {
  [stack, server] = await Promise.all([startTestStack(), startPostgres()]);
  const direct = new URL(await server.createDatabase());
  database = openTestPool(direct.toString(), { max: 2 });
  await migratePostgres(database);
  proxy = await startStoppableTcpProxy({ host: direct.hostname, port: Number(direct.port) });
  const viaProxy = new URL(direct);
  viaProxy.hostname = proxy.host;
  viaProxy.port = String(proxy.port);
  viaProxy.password = "";
  const configPath = await writeConfigVariant(stack, "outage", {
    storage: { url: viaProxy.toString(), max_connections: 4 },
    // No journal file: with [storage] the journal is the database's.
    settlement: { journal: null },
    daemon: { burn_address_pool_size: 2, burn_address_workers: 1, finalize_interval_ms: 1_000 },
  });
  instance = await startFacilitatorProcess({ configPath, env: { ...stack.env, SVC_STORAGE_PASSWORD: decodeURIComponent(direct.password) } });
}, 120_000);

afterAll(async () => {
  await instance?.stop("SIGKILL");
  await database?.end();
  await Promise.all([stack?.close(), server?.stop()]);
});

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

async function acceptedRecords(requirements: PaymentRequirements): Promise<number> {
  const { rows } = await database.query<{ count: string }>("select count(*) from journal_records where challenge_nonce = $1 and type = 'accepted'", [
    requirements.extra.challengeNonce.toLowerCase(),
  ]);
  return Number(rows[0]!.count);
}

const anvil = (method: string, params: unknown[] = []) => stack.client.request({ method: method as never, params: params as never });

describe("facilitator on PostgreSQL when the database goes away", () => {
  it("answers storage_unavailable (503 on /settle), never 500, accepts nothing, and settles the same payload once the database is back", async () => {
    const interrupted = await requestOffer(instance, "1000");
    const interruptedBody = facilitatorBody(interrupted, await signPermitPayment(stack, interrupted, stack.deployment.accounts.payer.privateKey));
    const untouched = await requestOffer(instance, "2000");
    const untouchedBody = facilitatorBody(untouched, await signPermitPayment(stack, untouched, stack.deployment.accounts.payer2.privateKey));

    // The relayed burn waits in the mempool while the database goes away, so the settle that made it has to
    // write its `accepted` record to a database that is gone.
    await anvil("evm_setAutomine", [false]);
    let answer: Awaited<ReturnType<typeof postJson>>;
    let burnTx: Hex;
    try {
      const settling = postJson(`${instance.url}/settle`, interruptedBody);
      const marker = `"event":"permit_burn_broadcast","challenge_nonce":"${interrupted.extra.challengeNonce}"`;
      const line = await waitFor(() => instance.lines.find((entry) => entry.includes(marker)), {
        what: "the permit burn broadcast",
        timeoutMs: 20_000,
        intervalMs: 50,
      });
      burnTx = (JSON.parse(line) as { burn_tx: Hex }).burn_tx;
      await proxy.cut();
      await anvil("evm_mine");
      answer = await settling;
    } finally {
      await anvil("evm_setAutomine", [true]);
    }
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ success: false, errorReason: "storage_unavailable" });
    expect(await burnsTo(interrupted)).toEqual([burnTx]);
    expect(await acceptedRecords(interrupted)).toBe(0);

    // With the database still away: a fresh settle burns nothing, verify names the outage, no offer is issued.
    const refused = await fetch(`${instance.url}/settle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(untouchedBody),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ success: false, errorReason: "storage_unavailable" });
    expect(await postJson(`${instance.url}/verify`, untouchedBody)).toMatchObject({
      status: 200,
      body: { isValid: false, invalidReason: "storage_unavailable" },
    });
    expect((await postJson(`${instance.url}/challenge`, { amount: "1000" })).status).toBe(503);
    expect(await burnsTo(untouched)).toEqual([]);
    expect(await acceptedRecords(untouched)).toBe(0);
    expect(instance.lines.filter((entry) => entry.includes('"status":500'))).toEqual([]);
    expect(instance.lines.filter((entry) => entry.includes('"event":"journal_disabled"'))).toEqual([]);

    // The database back: the re-sent payload is accepted on the burn already made, and the untouched one settles.
    await proxy.restore();
    const recovered = await waitFor(
      async () => {
        const { body } = await postJson(`${instance.url}/settle`, interruptedBody);
        return body.success === true ? body : undefined;
      },
      { what: "the interrupted settle accepted once the database is back", timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(recovered).toMatchObject({ transaction: burnTx!, extra: { phase: "accepted" } });
    expect(await burnsTo(interrupted)).toEqual([burnTx!]);
    expect(await acceptedRecords(interrupted)).toBe(1);
    expect((await postJson(`${instance.url}/settle`, untouchedBody)).body).toMatchObject({ success: true, extra: { phase: "accepted" } });
    expect(await burnsTo(untouched)).toHaveLength(1);
  }, 90_000);
});
