/**
 * Two facilitator processes on one PostgreSQL database at the default pool size (`storage.max_connections`
 * left unset: 10) settle bursts of concurrent permit payments, half on each instance: 20 at once, then 100
 * at once, each payment from a payer of its own (EIP-2612 permit nonces are per owner and sequential). Every
 * relayed burn of both instances runs under the relayer key's one nonce lock, so a settle that held a
 * pooled connection while it waited for another would stall the pool until the connection timeout and fail
 * some payments with `pending_burn`, `storage_unavailable` or `relay_failed` while the database is healthy.
 * Real processes (`facilitator/dist/cli.js`), a real anvil (automine), a real PostgreSQL server.
 */
import { performance } from "node:perf_hooks";
import { fixtureTokenAdminAbi, startFacilitatorProcess, type FacilitatorProcess } from "@svc/anvil-fixtures";
import { startPostgres, type RunningPostgres } from "@svc/anvil-fixtures/postgres";
import { permitBurnerAbi, type PaymentRequirements } from "@svc/scheme";
import { encodeFunctionData, keccak256, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONNECT_TIMEOUT_MS } from "../storage/openPostgresStorage.js";
import { migratePostgres } from "../storage/postgresMigrations.js";
import { facilitatorBody, requestOffer, signPermitPayment, startTestStack, writeConfigVariant, type TestStack } from "../testing/localFacilitator.js";
import { openTestPool } from "../testing/openTestPool.js";

/** The bursts, in the order they run; each uses payers of its own. */
const BURSTS = [20, 100] as const;

/** zERC20 base units each payer is funded with: far more than one offer's amount plus its fee. */
const PAYER_FUNDING = 10n ** 18n;

let stack: TestStack;
let server: RunningPostgres;
let instances: [FacilitatorProcess, FacilitatorProcess];
const running: FacilitatorProcess[] = [];

/** Payer `index`'s key: `keccak256("svc-zerc20/concurrent-settle-payer/<index>")`, so a run is reproducible. */
function payerKey(index: number): Hex {
  return keccak256(toHex(`svc-zerc20/concurrent-settle-payer/${index}`));
}

/**
 * Mints {@link PAYER_FUNDING} to each payer from the deployer (the fixture token's minter): every transaction
 * signed with consecutive nonces and sent at once, then the last receipt awaited. Permit payments are
 * gasless for the payer, so no ether is needed.
 */
async function fundPayers(keys: readonly Hex[]): Promise<void> {
  const { deployment } = stack;
  const deployer = privateKeyToAccount(deployment.accounts.deployer.privateKey);
  const [startNonce, block] = await Promise.all([
    stack.client.getTransactionCount({ address: deployer.address, blockTag: "pending" }),
    stack.client.getBlock(),
  ]);
  const maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 3n + 1_000_000_000n;
  const signed = await Promise.all(
    keys.map((key, offset) =>
      deployer.signTransaction({
        type: "eip1559",
        chainId: deployment.chainId,
        nonce: startNonce + offset,
        gas: 200_000n,
        maxFeePerGas,
        maxPriorityFeePerGas: 1_000_000_000n,
        to: deployment.token,
        data: encodeFunctionData({ abi: fixtureTokenAdminAbi, functionName: "mint", args: [privateKeyToAccount(key).address, PAYER_FUNDING] }),
      }),
    ),
  );
  const hashes: Hex[] = [];
  for (const serializedTransaction of signed) hashes.push(await stack.client.sendRawTransaction({ serializedTransaction }));
  const receipt = await stack.client.waitForTransactionReceipt({ hash: hashes.at(-1)!, pollingInterval: 50, timeout: 30_000 });
  expect(receipt.status).toBe("success");
}

/** Runs `work` over `items` with at most `limit` in flight, keeping the order of `items`. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * How long one settle of a burst may go unanswered before it counts as failed: a bound on the test, not a speed
 * target, so a stalled burst fails with the answers it got instead of running into the test's timeout.
 */
const ANSWER_DEADLINE_MS = 45_000;

/** A settle's answer and when it came (`performance.now()`); no answer by the deadline is a failure. */
async function settleWithin(url: string, body: unknown): Promise<{ status: number; answer: any; answeredAt: number }> {
  try {
    const response = await fetch(`${url}/settle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
    });
    const answer = await response.json();
    return { status: response.status, answer, answeredAt: performance.now() };
  } catch (error) {
    if (!(error instanceof DOMException && error.name === "TimeoutError")) throw error;
    return { status: 0, answer: { errorReason: `no answer within ${ANSWER_DEADLINE_MS} ms` }, answeredAt: performance.now() };
  }
}

/** One prepared payment: the offer, the settle body signed by its own payer, and the instance that settles it. */
type PreparedPayment = { requirements: PaymentRequirements; body: ReturnType<typeof facilitatorBody>; settler: FacilitatorProcess };

/**
 * Offers and signatures for `count` payments by the payers `firstPayer…`, ahead of the burst (a v2 burn address
 * takes a fraction of a second of CPU to derive, so the offers are requested a few at a time per instance while
 * the stock refills). As behind a round-robin, payment `i` is offered by one instance and settled by the other.
 */
async function preparePayments(count: number, firstPayer: number): Promise<PreparedPayment[]> {
  const prepared = await Promise.all(
    instances.map((issuer, side) => {
      const indexes = Array.from({ length: count }, (_, index) => index).filter((index) => index % 2 === side);
      return mapLimited(indexes, 4, async (index) => {
        const requirements = await requestOffer(issuer, "1000");
        const payload = await signPermitPayment(stack, requirements, payerKey(firstPayer + index));
        return { index, payment: { requirements, body: facilitatorBody(requirements, payload), settler: instances[1 - side]! } };
      });
    }),
  );
  return prepared
    .flat()
    .sort((x, y) => x.index - y.index)
    .map((entry) => entry.payment);
}

/** `BurnExecuted` events of PermitBurner from `fromBlock`, as `challengeNonce → burn transaction hashes`. */
async function burnsByChallenge(fromBlock: bigint): Promise<Map<string, Hex[]>> {
  const events = await stack.client.getContractEvents({
    address: stack.deployment.permitBurner,
    abi: permitBurnerAbi,
    eventName: "BurnExecuted",
    fromBlock,
    strict: true,
  });
  const burns = new Map<string, Hex[]>();
  for (const event of events) {
    const challengeNonce = event.args.challengeNonce.toLowerCase();
    burns.set(challengeNonce, [...(burns.get(challengeNonce) ?? []), event.transactionHash]);
  }
  return burns;
}

beforeAll(async () => {
  [stack, server] = await Promise.all([startTestStack(), startPostgres()]);
  const url = new URL(await server.createDatabase());
  const database = openTestPool(url.toString(), { max: 1 });
  try {
    await migratePostgres(database);
  } finally {
    await database.end();
  }
  const password = decodeURIComponent(url.password);
  url.password = "";
  const configPath = await writeConfigVariant(stack, "concurrent", {
    // max_connections is left at its default on purpose: the pool size the stall was reported at.
    storage: { url: url.toString() },
    settlement: { journal: "concurrent.journal.jsonl" },
    // A stock of one: each offer is derived just before it is taken, so no refill competes with the bursts for
    // the CPU once the offers are out. Issuance limits are off in the stack's config already.
    daemon: { burn_address_pool_size: 1 },
  });
  const env = { ...stack.env, SVC_STORAGE_PASSWORD: password };
  const start = async () => {
    const started = await startFacilitatorProcess({ configPath, env });
    running.push(started);
    return started;
  };
  const payers = BURSTS.reduce((total, count) => total + count, 0);
  const [a, b] = await Promise.all([start(), start(), fundPayers(Array.from({ length: payers }, (_, index) => payerKey(index)))]);
  instances = [a, b];
}, 120_000);

afterAll(async () => {
  for (const instance of running) await instance.stop("SIGKILL");
  await Promise.all([stack?.close(), server?.stop()]);
});

describe("concurrent permit settles on two instances sharing PostgreSQL", () => {
  it.for(BURSTS.map((count, burst) => ({ count, firstPayer: BURSTS.slice(0, burst).reduce((total, earlier) => total + earlier, 0) })))(
    "a burst of $count settles at the default pool size: every one accepted, one burn each, the answers never stall",
    { timeout: 150_000 },
    async ({ count, firstPayer }, { annotate }) => {
      const payments = await preparePayments(count, firstPayer);
      const fromBlock = await stack.client.getBlockNumber();

      const burstStarted = performance.now();
      const answers = await Promise.all(payments.map(({ body, settler }) => settleWithin(settler.url, body)));
      const slowestMs = Math.max(...answers.map((entry) => entry.answeredAt - burstStarted));
      const answeredAt = answers.map((entry) => entry.answeredAt).sort((x, y) => x - y);
      const longestStallMs = Math.max(0, ...answeredAt.slice(1).map((at, index) => at - answeredAt[index]!));
      // The figures of this machine, for the record (speed is not asserted).
      const figures = `burst of ${count}: slowest answer ${Math.round(slowestMs)} ms, longest pause between answers ${Math.round(longestStallMs)} ms`;
      console.info(figures);
      await annotate(figures);

      // No failure at all: in particular no pending_burn, storage_unavailable or relay_failed.
      const failures = answers.filter((entry) => entry.status !== 200 || entry.answer.success !== true);
      expect(failures.map((entry) => `${entry.status} ${entry.answer.errorReason}`)).toEqual([]);
      for (const { answer } of answers) expect(answer).toMatchObject({ success: true, extra: { phase: "accepted" } });

      // Each payment burned exactly once on chain, by the transaction its answer names (an accepted relay is mined).
      const burns = await burnsByChallenge(fromBlock);
      expect(payments.map((payment) => burns.get(payment.requirements.extra.challengeNonce.toLowerCase()))).toEqual(
        answers.map((entry) => [entry.answer.transaction]),
      );
      expect(new Set(answers.map((entry) => entry.answer.transaction)).size).toBe(count);

      // A pool deadlock stops every broadcast of the relayer key until the pool's connection timeout frees a
      // connection: the answers stop for nearly that long (the timer starts moments after the last answer). Waiting
      // in line for the key is no stall: the answers keep coming, one per broadcast, however long the line.
      expect(longestStallMs).toBeLessThan(CONNECT_TIMEOUT_MS / 2);
    },
  );
});
