/**
 * A lost answer after the payment left, recovered with `resend`: the first paid request reaches the provider
 * (which verifies and settles) but its answer is cut; `pay` reports an unknown outcome and keeps the spend;
 * `resend <id>` sends the identical stored bytes and gets the resource, and the chain shows exactly one burn
 * for the offer. Both modes; two paid requests (plus their re-sends).
 */
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { EXIT_FAILED, EXIT_OK, EXIT_UNKNOWN, Ledger, runAgent, startLossyProxy, type LossyProxy } from "@svc/agent/testing";
import { startWorld, type World } from "@svc/anvil-fixtures";

let world: World;
let proxy: LossyProxy;
beforeAll(async () => {
  world = await startWorld({ price: "1000", dirPrefix: "svc-agent-world-" });
  proxy = await startLossyProxy(world.provider.url, 0);
});
afterAll(async () => {
  await proxy?.close();
  await world?.close();
});

describe("resend after a lost answer", () => {
  it.each(["permit", "self-transfer"] as const)("completes a %s payment with the same bytes and no second burn", async (mode) => {
    const env = world.agentEnv(`resend-${mode}`, { SVC_PAYER_PK: world.payerKey, SVC_MODE: mode });
    proxy.dropPaidAnswers = 1;
    const paidBefore = proxy.requests.filter((request) => request.headers["payment-signature"] !== undefined).length;

    const first = await runAgent(["pay", "--json", `${proxy.origin}/weather`], env);
    expect(first.code).toBe(EXIT_UNKNOWN);
    const lost = JSON.parse(first.stdout) as { result: string; id: string; message: string };
    expect(lost).toMatchObject({ result: "unknown" });
    expect(lost.message).toContain(`resend ${lost.id}`);

    const ledger = new Ledger(join(world.dir, `resend-${mode}`));
    const pending = await ledger.get(lost.id);
    expect(pending.status).toBe("unknown");
    expect(pending.paymentHeader).toBeDefined();
    const burns = await world.transfersTo(pending.payTo);
    expect(burns).toHaveLength(1);

    const again = await runAgent(["resend", "--json", lost.id], env);
    expect(again.code).toBe(EXIT_OK);
    expect(JSON.parse(again.stdout)).toMatchObject({ result: "paid", id: lost.id, transaction: burns[0]?.transactionHash, resource: { status: 200 } });
    expect(await ledger.get(lost.id)).toMatchObject({ status: "settled", paymentHeader: pending.paymentHeader });

    const paid = proxy.requests.filter((request) => request.headers["payment-signature"] !== undefined).slice(paidBefore);
    expect(paid.map((request) => request.headers["payment-signature"])).toEqual([pending.paymentHeader, pending.paymentHeader]);
    expect(await world.transfersTo(pending.payTo)).toEqual(burns);

    const settledAlready = await runAgent(["resend", lost.id], env);
    expect(settledAlready.code).toBe(EXIT_FAILED);
    expect(settledAlready.stderr).toContain(`Payment ${lost.id} is settled; only a signed payment of unknown outcome can be re-sent.`);
  });
});
