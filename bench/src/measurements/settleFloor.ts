/**
 * Section 2, first half: `/settle` latency of a self-transfer payment against the floor of the RPC work it
 * needs, issued directly with viem the way the facilitator issues it (the receipt, the latest block and the
 * burn address's balance in one batch, then the receipt's block) through the same counting proxy, in the same run on the same burn.
 * Two more figures locate the rest of the time: a trivial facilitator route (`GET /healthz`: HTTP + Koa)
 * and one fsynced journal append on the same filesystem (the spec has `/settle` fsync the accepted entry
 * before it answers). The burns are made first and timing starts with the burn-address worker idle.
 */
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import { coalesceJsonRpc, createPooledFetch, zerc20TokenAbi } from "@svc/scheme";
import { createPublicClient, http, isAddress, isHex, type Address, type Hex, type PublicClient } from "viem";
import type { BenchContext } from "../harness/benchContext.js";
import { booleanField, getJson, postJson } from "../harness/postJson.js";
import type { PreparedPayment } from "../harness/startPayer.js";
import { summarize, type Summary } from "../harness/stats.js";

/** What the settle-floor measurement found. */
export type SettleFloorResult = {
  /** `POST /settle` of a mined self-transfer burn, as the provider calls it, ms. */
  settleMs: Summary;
  /** The same RPC calls issued directly with viem through the same counting proxy, ms. */
  floorViaProxyMs: Summary;
  /** The same RPC calls straight to anvil, ms. */
  floorDirectMs: Summary;
  /** `GET /healthz` of the same facilitator (HTTP + Koa + routing), ms. */
  healthzMs: Summary;
  /** One journal-sized append + fsync on the run's filesystem, ms. */
  fsyncMs: Summary;
  failures: string[];
};

/**
 * The RPC work of a self-transfer settle, as `checkSelfTransferBurn` issues it: the receipt, the latest block and
 * the balance in one batch, then the receipt's own block by hash only when the latest block is past the offer's
 * expiry and is not that block (here the offers live 30 minutes, so one batch is the whole floor).
 */
async function settleFloor(client: PublicClient, burn: { hash: Hex; token: Address; payTo: Address; expiresAt: number }): Promise<number> {
  const started = performance.now();
  const [receipt, latest] = await Promise.all([
    client.getTransactionReceipt({ hash: burn.hash }),
    client.getBlock({ blockTag: "latest" }),
    client.readContract({ address: burn.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [burn.payTo] }),
  ]);
  const inTimeByLatest = latest.number >= receipt.blockNumber && Number(latest.timestamp) <= burn.expiresAt;
  if (!inTimeByLatest && latest.hash !== receipt.blockHash) await client.getBlock({ blockHash: receipt.blockHash });
  return performance.now() - started;
}

/** One fsynced append of `line` per run, timed. */
async function measureFsync(path: string, runs: number): Promise<number[]> {
  const line = `${JSON.stringify({ type: "accepted", padding: "x".repeat(600) })}\n`;
  const handle = await open(path, "a");
  const samples: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await handle.appendFile(line, "utf8");
      await handle.sync();
      samples.push(performance.now() - started);
    }
  } finally {
    await handle.close();
    await rm(path, { force: true });
  }
  return samples;
}

/** Runs the settle-floor measurement. */
export async function measureSettleFloor(context: BenchContext): Promise<SettleFloorResult> {
  const { ours, payer, payerKey, config, stack, progress } = context;
  // The facilitator's own transport setup (`createRpcTransport`): calls of one turn coalesced into one batch,
  // over a pooled fetch.
  const transportOptions = { retryCount: 0, fetchFn: coalesceJsonRpc(createPooledFetch().fetch) } as const;
  const viaProxy = createPublicClient({ transport: http(ours.proxy.url, transportOptions) });
  const direct = createPublicClient({ transport: http(stack.deployment.rpcUrl, transportOptions) });
  const settle: number[] = [];
  const floorProxy: number[] = [];
  const floorDirect: number[] = [];
  const healthz: number[] = [];
  const failures: string[] = [];

  // Burns first (each takes an offer), then a full stock, so the timed part runs with the worker idle.
  await ours.waitForFullStock();
  const prepared: PreparedPayment[] = [];
  for (let run = 0; run < config.settleRuns; run++) {
    progress(`settle floor: burning ${run + 1}/${config.settleRuns}`);
    prepared.push(await payer.prepare("self-transfer", payerKey, `${ours.provider.url}/weather`));
  }
  await ours.waitForFullStock();
  progress("settle floor: timing /settle against the raw RPC calls");
  for (const [run, payment] of prepared.entries()) {
    const hash = payment.paymentPayload.payload.burnTxHash;
    const { payTo, asset: token } = payment.requirements;
    const expiresAt = payment.requirements.extra.expiresAt;
    if (!isHex(hash) || !isAddress(payTo) || !isAddress(token) || typeof expiresAt !== "number") {
      failures.push("self-transfer payload without a burn transaction, or an offer without addresses or expiry");
      continue;
    }
    const burn = { hash, token, payTo, expiresAt };
    // Warm both clients on the first burn, so neither side pays for a first connection.
    if (run === 0) {
      await settleFloor(viaProxy, burn);
      await settleFloor(direct, burn);
      await getJson(`${ours.facilitator.url}/healthz`);
    }
    const response = await postJson(`${ours.facilitator.url}/settle`, {
      x402Version: 2,
      paymentPayload: payment.paymentPayload,
      paymentRequirements: payment.requirements,
    });
    if (!booleanField(response.body, "success")) {
      failures.push(`settle: HTTP ${response.status} ${JSON.stringify(response.body)}`);
      continue;
    }
    settle.push(response.ms);
    floorProxy.push(await settleFloor(viaProxy, burn));
    floorDirect.push(await settleFloor(direct, burn));
    healthz.push((await getJson(`${ours.facilitator.url}/healthz`)).ms);
  }
  const fsync = await measureFsync(join(context.dir, "fsync-probe.jsonl"), Math.max(20, config.settleRuns));
  return {
    settleMs: summarize(settle),
    floorViaProxyMs: summarize(floorProxy),
    floorDirectMs: summarize(floorDirect),
    healthzMs: summarize(healthz),
    fsyncMs: summarize(fsync),
    failures,
  };
}
