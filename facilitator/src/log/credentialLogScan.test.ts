/**
 * Log scan: a real daemon on a real stack whose RPC, indexer and decider URLs carry an API key
 * (`/v3/<key>?apikey=<key>`), reached through a proxy that is then made to fail in provider-like ways (a 503
 * quoting the request target, a JSON-RPC error quoting it, a cut connection) while payments are verified and
 * settled. The key must never appear in any log line or in any HTTP answer, headers included.
 */
import { waitFor } from "@svc/anvil-fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCredentialedProxy, type CredentialedProxy, type ProxyMode } from "../testing/credentialedProxy.js";
import {
  broadcastBurn,
  facilitatorBody,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";
import { sendRawRequest, type RawRequest } from "../http/testing/sendRawRequest.js";

/** Key-shaped (letters and digits, 32 characters) like a hosted provider's project key. */
const KEY = "Lg7Qk2Vx9Rt4Mz8Pw3Hn6Ys1Bc5Jd0F";
const RPC_PREFIX = `/v3/${KEY}`;
const INDEXER_PREFIX = `/idx/${KEY}`;
const DECIDER_PREFIX = `/dec/${KEY}`;
const FAILING_MODES: readonly ProxyMode[] = ["http-503-echo", "rpc-error-echo", "cut"];

let stack: TestStack;
let proxy: CredentialedProxy;
let daemon: TestDaemon;
let daemonStopped = false;

beforeAll(async () => {
  stack = await startTestStack();
  proxy = await startCredentialedProxy({
    [RPC_PREFIX]: stack.deployment.rpcUrl,
    [INDEXER_PREFIX]: stack.deployment.indexerUrl,
    [DECIDER_PREFIX]: stack.deployment.deciderUrl,
  });
  daemon = await startTestDaemon(stack, "log-scan", {
    network: {
      rpc_url: `${proxy.base}${RPC_PREFIX}?apikey=${KEY}`,
      indexer_url: `${proxy.base}${INDEXER_PREFIX}`,
      decider_url: `${proxy.base}${DECIDER_PREFIX}`,
    },
  });
});

afterAll(async () => {
  if (!daemonStopped) await daemon?.stop();
  await proxy?.close();
  await stack?.close();
});

describe("credential-bearing service URLs", () => {
  it("never reach a log line or an HTTP answer, whatever the RPC fails with", async () => {
    const answers: string[] = [];
    const record = async (request: RawRequest) => {
      const response = await sendRawRequest(daemon.url, request, 60_000);
      answers.push(`${response.status} ${JSON.stringify(response.headers)} ${response.body}`);
      return response;
    };
    const post = (path: string, body: unknown): RawRequest => ({
      method: "POST",
      path,
      headers: [["Content-Type", "application/json"]],
      body: JSON.stringify(body),
    });
    const payerKey = stack.deployment.accounts.payer.privateKey;

    // One settled payment gives the finalize loop indexer and decider work to fail at.
    const settledOffer = await requestOffer(daemon, "1000");
    const settledBurn = await broadcastBurn(stack, settledOffer, payerKey);
    const settled = await record(
      post("/settle", facilitatorBody(settledOffer, { challengeNonce: settledOffer.extra.challengeNonce, burnTxHash: settledBurn })),
    );
    expect(JSON.parse(settled.body)).toMatchObject({ success: true });

    for (const mode of FAILING_MODES) {
      // Offers are taken while the RPC works: /challenge is gated on a reachable chain.
      const permitOffer = await requestOffer(daemon, "1000");
      const transferOffer = await requestOffer(daemon, "1000");
      const permit = facilitatorBody(permitOffer, await signPermitPayment(stack, permitOffer, payerKey));
      const transfer = facilitatorBody(transferOffer, {
        challengeNonce: transferOffer.extra.challengeNonce,
        burnTxHash: await broadcastBurn(stack, transferOffer, payerKey),
      });
      const failuresBefore = proxy.failures(RPC_PREFIX);
      const indexerFailuresBefore = proxy.failures(INDEXER_PREFIX);

      proxy.setMode(mode);
      for (const body of [permit, transfer]) {
        await record(post("/verify", body));
        await record(post("/settle", body));
      }
      await record(post("/challenge", { amount: "1000" }));
      await record({ method: "GET", path: "/healthz" });
      // The readiness probe is cached; asking again until it re-probes makes it call the failing indexer too.
      await waitFor(
        async () => {
          await record({ method: "GET", path: "/readyz" });
          return proxy.failures(INDEXER_PREFIX) > indexerFailuresBefore;
        },
        { what: "the readiness probe to call the failing indexer" },
      );
      proxy.setMode("forward");
      // The readiness probe is cached: wait until it has seen the RPC back before the next round takes offers.
      await waitFor(async () => (await sendRawRequest(daemon.url, { method: "GET", path: "/readyz" })).status === 200, { what: "readiness to recover" });

      expect(proxy.failures(RPC_PREFIX), `RPC calls failed in mode ${mode}`).toBeGreaterThan(failuresBefore);
    }
    // Stopping writes the last lines (`stopping`, `stopped`) and ends the finalize loop's retries.
    daemonStopped = true;
    await daemon.stop();

    const leaks = [...daemon.logs, ...answers].filter((text) => text.toLowerCase().includes(KEY.toLowerCase()));
    expect(leaks).toEqual([]);
    // The scan is not vacuous: the URL itself is logged, in its redacted form.
    expect(daemon.logs.some((line) => line.includes(`${proxy.base}/v3/***?apikey=***`))).toBe(true);
    expect(daemon.logs.length).toBeGreaterThan(5);
  });
});
