/**
 * Separate hands and aggregated fee sweeps on a real stack: with `SVC_MINTER_PK` set every mint is sent by
 * the minter and the burn relayer never sends one; fees wait for their interval and then leave the treasury
 * in one transfer of their sum; a process killed between journaling a sweep and its receipt re-broadcasts
 * that very sweep after the restart, and exactly one lands.
 */
import { startFacilitatorProcess, waitFor, type FacilitatorProcess } from "@svc/anvil-fixtures";
import { zerc20TokenAbi, zerc20Protocol } from "@svc/scheme";
import { createWalletClient, getAddress, http, isAddressEqual, type Address, type Hex } from "viem";
import { privateKeyToAccount, privateKeyToAddress } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { developmentKeys } from "../config/developmentKeys.js";
import {
  adminGet,
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  writeConfigVariant,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";
import { safeParseConfig } from "../config/parseConfig.js";
import { buildConfigTable, type ConfigTable } from "../config/testing/buildConfig.js";
import { feeSweepDue, RECOMMENDED_SWEEP_INTERVAL_SECONDS, sweepIntervalSeconds } from "./sweepFees.js";

let stack: TestStack;
const running: FacilitatorProcess[] = [];
// anvil funds ten accounts and the stack names the first eight: the ninth is free to mint.
const MINTER_PK = developmentKeys()[8] as Hex;
const MINTER = privateKeyToAddress(MINTER_PK);

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300 });
});

afterAll(async () => {
  for (const process of running) await process.stop("SIGKILL");
  await stack?.close();
});

const treasury = () => stack.deployment.accounts.treasury.address;
const feeRecipient = () => stack.deployment.accounts.feeRecipient.address;

async function paySelfTransfer(url: string, list: string): Promise<Hex> {
  const requirements = await requestOffer({ url }, list);
  const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
  const settled = await postJson(`${url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
  expect(settled.body.success).toBe(true);
  return requirements.extra.challengeNonce as Hex;
}

async function payPermit(url: string, list: string): Promise<{ challengeNonce: Hex; burnTxHash: Hex }> {
  const requirements = await requestOffer({ url }, list);
  const settled = await postJson(
    `${url}/settle`,
    facilitatorBody(requirements, await signPermitPayment(stack, requirements, stack.deployment.accounts.payer2.privateKey)),
  );
  expect(settled.body.success).toBe(true);
  return { challengeNonce: requirements.extra.challengeNonce as Hex, burnTxHash: settled.body.transaction as Hex };
}

/** Runs finalize passes until every payment is finalized. */
async function finalizeAll(daemon: TestDaemon, nonces: readonly Hex[]): Promise<void> {
  await waitFor(
    async () => {
      await daemon.finalizeOnce();
      const { settlements } = await adminGet(stack, daemon, "/admin/settlements?state=finalized");
      const finalized = new Set((settlements as { challengeNonce: string }[]).map((entry) => entry.challengeNonce.toLowerCase()));
      return nonces.every((nonce) => finalized.has(nonce.toLowerCase()));
    },
    { what: "every payment finalized", timeoutMs: 40_000, intervalMs: 200 },
  );
}

/** Fee transfers from the treasury to the fee recipient from `fromBlock` on. */
async function feeTransfers(fromBlock: bigint): Promise<{ value: bigint; transactionHash: Hex }[]> {
  const logs = await stack.client.getContractEvents({
    address: stack.deployment.token,
    abi: zerc20TokenAbi,
    eventName: "Transfer",
    args: { from: treasury(), to: feeRecipient() },
    fromBlock,
    strict: true,
  });
  return logs.map((log) => ({ value: log.args.value, transactionHash: log.transactionHash }));
}

const settledLines = (logs: readonly string[]) => logs.filter((line) => line.includes('"event":"fee_settled"'));

describe("feeSweepDue", () => {
  it("is due one interval after the last sweep, or after the oldest waiting payment before any sweep", () => {
    expect(feeSweepDue({ now: 100, intervalSeconds: 0, lastSweepAt: undefined, finalizedAt: [100] })).toBe(true);
    expect(feeSweepDue({ now: 100, intervalSeconds: 60, lastSweepAt: undefined, finalizedAt: [90, 50] })).toBe(false);
    expect(feeSweepDue({ now: 110, intervalSeconds: 60, lastSweepAt: undefined, finalizedAt: [90, 50] })).toBe(true);
    expect(feeSweepDue({ now: 110, intervalSeconds: 60, lastSweepAt: 80, finalizedAt: [50] })).toBe(false);
    expect(feeSweepDue({ now: 140, intervalSeconds: 60, lastSweepAt: 80, finalizedAt: [50] })).toBe(true);
    expect(feeSweepDue({ now: 140, intervalSeconds: 0, lastSweepAt: 80, finalizedAt: [] })).toBe(false);
  });
});

describe("fee.sweep_interval_seconds", () => {
  const parse = (overrides: ConfigTable) => safeParseConfig(buildConfigTable(overrides), { configDir: "/" });
  const interval = (overrides: ConfigTable) => {
    const parsed = parse(overrides);
    if (!parsed.success) throw new Error("expected the configuration to parse");
    return sweepIntervalSeconds(parsed.config);
  };

  it("defaults to every pass under profile local and to the hourly recommendation elsewhere; a set value wins", () => {
    expect(interval({})).toBe(0);
    expect(interval({ profile: "testnet" })).toBe(RECOMMENDED_SWEEP_INTERVAL_SECONDS);
    expect(RECOMMENDED_SWEEP_INTERVAL_SECONDS).toBe(3600);
    expect(interval({ fee: { sweep_interval_seconds: 900 } })).toBe(900);
    expect(interval({ profile: "production", fee: { sweep_interval_seconds: 0 } })).toBe(0);
  });

  it("refuses a negative, fractional or week-plus interval, naming the key", () => {
    for (const value of [-1, 1.5, 604_801, "3600"]) {
      const parsed = parse({ fee: { sweep_interval_seconds: value } });
      expect(parsed.success).toBe(false);
      if (!parsed.success) expect(parsed.errors.map((error) => error.shortMessage).join(" ")).toContain("fee.sweep_interval_seconds");
    }
  });
});

describe("separate hands and aggregated sweeps", () => {
  it("mints only from SVC_MINTER_PK, holds fees for the interval, then sweeps them in one transfer of their sum", async () => {
    const env = { ...stack.env, SVC_MINTER_PK: MINTER_PK };
    const fromBlock = await stack.client.getBlockNumber({ cacheTime: 0 });
    const holding = await startTestDaemon(stack, "hands", { daemon: { finalize_interval_ms: 600_000 }, fee: { sweep_interval_seconds: 3600 } }, env);
    const feesBefore = await balanceOf(stack, feeRecipient());
    let nonces: Hex[];
    let permitBurn: Hex;
    try {
      const first = await paySelfTransfer(holding.url, "10000");
      const permit = await payPermit(holding.url, "20000");
      const third = await paySelfTransfer(holding.url, "30000");
      nonces = [first, permit.challengeNonce, third];
      permitBurn = permit.burnTxHash;
      await finalizeAll(holding, nonces);
      await holding.finalizeOnce();
      const status = await adminGet(stack, holding, "/admin/status");
      expect(status.minter).toMatchObject({ address: MINTER, balanceWei: expect.stringMatching(/^[1-9][0-9]*$/) });
      // Inside the interval: every payment minted, no fee moved yet.
      expect(settledLines(holding.logs)).toEqual([]);
      expect(await balanceOf(stack, feeRecipient())).toBe(feesBefore);
    } finally {
      await holding.stop();
    }

    const relayer = stack.deployment.accounts.relayer.address;
    expect(getAddress((await stack.client.getTransaction({ hash: permitBurn })).from)).toBe(getAddress(relayer));
    const mints = await stack.client.getLogs({ address: stack.deployment.verifier, event: zerc20Protocol(stack.deployment.protocol).teleportEvent, fromBlock });
    expect(mints).toHaveLength(3);
    for (const mint of mints) {
      expect(getAddress((await stack.client.getTransaction({ hash: mint.transactionHash })).from)).toBe(MINTER);
    }
    // Every transaction the burn relayer sent in this test went anywhere but the verifier.
    const latest = await stack.client.getBlockNumber({ cacheTime: 0 });
    const relayerTargets: (Address | null)[] = [];
    for (let number = fromBlock; number <= latest; number++) {
      const block = await stack.client.getBlock({ blockNumber: number, includeTransactions: true });
      for (const tx of block.transactions) if (isAddressEqual(tx.from, relayer)) relayerTargets.push(tx.to);
    }
    expect(relayerTargets.length).toBeGreaterThan(0);
    expect(relayerTargets.some((to) => to !== null && isAddressEqual(to, stack.deployment.verifier))).toBe(false);

    // The interval over (0 here): one pass pays all three fees (1% each) in a single transfer.
    const sweepFrom = await stack.client.getBlockNumber({ cacheTime: 0 });
    const sweeping = await startTestDaemon(stack, "hands", { daemon: { finalize_interval_ms: 600_000 }, fee: { sweep_interval_seconds: 0 } }, env);
    try {
      await sweeping.finalizeOnce();
      const transfers = await feeTransfers(sweepFrom);
      expect(transfers.map((transfer) => transfer.value)).toEqual([100n + 200n + 300n]);
      expect(await balanceOf(stack, feeRecipient())).toBe(feesBefore + 600n);
      expect(settledLines(sweeping.logs)).toHaveLength(3);
      await sweeping.finalizeOnce();
      expect(await feeTransfers(sweepFrom)).toHaveLength(1);
    } finally {
      await sweeping.stop();
    }
  });
});

describe("a facilitator killed between journaling a fee sweep and its receipt", () => {
  async function startFacilitator(name: string, sweepIntervalSeconds: number): Promise<FacilitatorProcess> {
    const configPath = await writeConfigVariant(stack, name, {
      settlement: { journal: `${name}.journal.jsonl`, permit_receipt_timeout_ms: 1000 },
      daemon: { burn_address_pool_size: 2, finalize_interval_ms: 1000 },
      fee: { sweep_interval_seconds: sweepIntervalSeconds },
    });
    const started = await startFacilitatorProcess({ configPath, env: stack.env });
    running.push(started);
    return started;
  }

  const lineWith = (facilitator: FacilitatorProcess, marker: string, timeoutMs = 40_000) =>
    waitFor(() => facilitator.lines.find((line) => line.includes(marker)), { what: `a log line with ${marker}`, timeoutMs, intervalMs: 50 });

  it("re-broadcasts the journaled sweep after the restart, and exactly one sweep of the summed fees lands", async () => {
    const paying = await startFacilitator("sweep-killed", 3600);
    await paySelfTransfer(paying.url, "40000");
    await paySelfTransfer(paying.url, "50000");
    await waitFor(() => paying.lines.filter((line) => line.includes('"event":"payment_finalized"')).length === 2, {
      what: "both payments finalized",
      timeoutMs: 40_000,
    });
    await paying.stop("SIGKILL");
    const fromBlock = await stack.client.getBlockNumber({ cacheTime: 0 });
    const feesBefore = await balanceOf(stack, feeRecipient());

    let sweepTx: Hex;
    await stack.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    try {
      const sweeping = await startFacilitator("sweep-killed", 0);
      sweepTx = (JSON.parse(await lineWith(sweeping, '"event":"fee_sweep_broadcast"')) as { tx: Hex; payments: number }).tx;
      await sweeping.stop("SIGKILL");
      // As if the broadcast never reached the node: only the journal still knows the sweep.
      await stack.client.request({ method: "anvil_dropAllTransactions" as never, params: [] as never });
    } finally {
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
    expect(await feeTransfers(fromBlock)).toEqual([]);

    const restarted = await startFacilitator("sweep-killed", 0);
    await waitFor(() => settledLines(restarted.lines).length === 2, { what: "both fees settled", timeoutMs: 40_000 });
    expect(await feeTransfers(fromBlock)).toEqual([{ value: 400n + 500n, transactionHash: sweepTx }]);
    expect(await balanceOf(stack, feeRecipient())).toBe(feesBefore + 900n);
    expect(restarted.lines.some((line) => line.includes('"event":"fee_sweep_broadcast"'))).toBe(false);
  });

  it("sweeps afresh, once, when the journaled sweep can never land (another treasury transaction took its nonce)", async () => {
    const paying = await startFacilitator("sweep-void", 3600);
    await paySelfTransfer(paying.url, "60000");
    await lineWith(paying, '"event":"payment_finalized"');
    await paying.stop("SIGKILL");
    const fromBlock = await stack.client.getBlockNumber({ cacheTime: 0 });
    const feesBefore = await balanceOf(stack, feeRecipient());

    let voided: Hex;
    await stack.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    try {
      const sweeping = await startFacilitator("sweep-void", 0);
      voided = (JSON.parse(await lineWith(sweeping, '"event":"fee_sweep_broadcast"')) as { tx: Hex }).tx;
      await sweeping.stop("SIGKILL");
      await stack.client.request({ method: "anvil_dropAllTransactions" as never, params: [] as never });
    } finally {
      await stack.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
    // The operator's own transaction from the treasury lands on the nonce the journaled sweep carries.
    const wallet = createWalletClient({
      account: privateKeyToAccount(stack.deployment.accounts.treasury.privateKey),
      chain: foundry,
      transport: http(stack.deployment.rpcUrl),
    });
    await stack.client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: treasury(), value: 0n }) });

    const restarted = await startFacilitator("sweep-void", 0);
    await waitFor(() => settledLines(restarted.lines).length === 1, { what: "the fee settled", timeoutMs: 40_000 });
    expect(restarted.lines.some((line) => line.includes('"event":"fee_sweep_void"') && line.includes(voided))).toBe(true);
    const transfers = await feeTransfers(fromBlock);
    expect(transfers.map((transfer) => transfer.value)).toEqual([600n]);
    expect(transfers[0]?.transactionHash).not.toBe(voided);
    expect(await balanceOf(stack, feeRecipient())).toBe(feesBefore + 600n);
  });
});
