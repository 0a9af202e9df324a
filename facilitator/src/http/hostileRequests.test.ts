/**
 * Hostile input against a real daemon on a real anvil stack: a seeded fuzz over `/challenge`, `/verify`,
 * `/settle` (x402 and legacy bodies) and `/admin/*`, plus the known-bad requests as fixed cases. Every answer
 * must be below 500; `/verify` and `/settle` answer a JSON body with a reason code or refuse the body with a
 * 4xx; and no refusal may change the admin challenge counts, the settlement book or the journal's size.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { MALFORMED_PAYLOAD, type PaymentRequirements, REASON_CODES } from "@svc/scheme";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminGet,
  broadcastBurn,
  facilitatorBody,
  requestOffer,
  signPermitPayment,
  startTestDaemon,
  startTestStack,
  type TestDaemon,
  type TestStack,
} from "../testing/localFacilitator.js";
import { DEEP_ARRAY, generateHostileRequests, type HostileRequest } from "./testing/generateHostileRequests.js";
import { type RawRequest, type RawResponse, sendRawRequest } from "./testing/sendRawRequest.js";

/** Fixed so a failure names a case that reproduces on every run; change it only together with the case count. */
const FUZZ_SEED = 0x5eed_0012;
const FUZZ_CASES = 800;

let stack: TestStack;
let daemon: TestDaemon;
let journalPath: string;

beforeAll(async () => {
  stack = await startTestStack();
  // The finalize loop is parked so that nothing but the requests themselves can change the state.
  daemon = await startTestDaemon(stack, "hostile", { daemon: { finalize_interval_ms: 3_600_000 } });
  journalPath = join(stack.dir, "hostile.journal.jsonl");
});

afterAll(async () => {
  await daemon?.stop();
  await stack?.close();
});

/** The state a refused request must leave alone. */
async function snapshotState(): Promise<string> {
  const [challenges, settlements, journal] = await Promise.all([
    adminGet(stack, daemon, "/admin/challenges"),
    adminGet(stack, daemon, "/admin/settlements"),
    stat(journalPath).then(
      (file) => file.size,
      () => 0,
    ),
  ]);
  // Only the counts requests can move: a field that changes on its own (a pool refilling) is no evidence.
  return JSON.stringify({ open: challenges.open, retainedExpired: challenges.retainedExpired, settlements, journalBytes: journal });
}

const post = (path: string, body: string): RawRequest => ({ method: "POST", path, headers: [["Content-Type", "application/json"]], body });
const send = (request: RawRequest) => sendRawRequest(daemon.url, request);
const parseBody = (response: RawResponse): any => {
  try {
    return JSON.parse(response.body);
  } catch {
    return undefined;
  }
};

/** Why an answer breaks the contract for its route, or `undefined` when it keeps it. */
function contractBreach(route: HostileRequest["route"], response: RawResponse): string | undefined {
  if (response.status >= 500) return `status ${response.status}: ${response.body.slice(0, 200)}`;
  if (route !== "verify" && route !== "settle") return undefined;
  if (response.status !== 200) return response.status >= 400 ? undefined : `unexpected status ${response.status}`;
  const body = parseBody(response);
  const verdict = route === "verify" ? body?.isValid : body?.success;
  if (typeof verdict !== "boolean") return `200 without a verdict: ${response.body.slice(0, 200)}`;
  const reason = route === "verify" ? body.invalidReason : body.errorReason;
  if (!verdict && !REASON_CODES.includes(reason)) return `refusal without a reason code: ${String(reason)}`;
  return undefined;
}

/** True when the answer refuses: a 4xx, `isValid: false`, or `success: false` other than a pending burn. */
function isRefusal(route: HostileRequest["route"], response: RawResponse): boolean {
  if (response.status >= 400) return true;
  const body = parseBody(response);
  if (route === "verify") return body?.isValid === false;
  if (route === "settle") return body?.success === false && body?.errorReason !== "pending_burn";
  return route === "challenge";
}

/** Sends `request` and checks both the answer's contract and, on refusal, that the state did not move. */
async function probe(route: HostileRequest["route"], request: RawRequest): Promise<{ response: RawResponse; breach: string | undefined }> {
  const before = await snapshotState();
  const response = await send(request);
  const breach = contractBreach(route, response);
  if (breach !== undefined) return { response, breach };
  if (isRefusal(route, response) || route === "admin") {
    const after = await snapshotState();
    if (after !== before) return { response, breach: `state changed on a refusal (status ${response.status})` };
  }
  return { response, breach: undefined };
}

describe("known-bad requests", () => {
  const nonce = `0x${"11".repeat(32)}`;

  it.each([
    ["/settle", "legacy body with 1e400 under an unknown key", `{"challengeNonce":"${nonce}","burnTxHash":"${nonce}","x":1e400}`],
    ["/verify", "legacy body with -1e400 under an unknown key", `{"challengeNonce":"${nonce}","burnTxHash":"${nonce}","x":-1e400}`],
    ["/settle", "legacy body with an array nested 5,000 deep", `{"challengeNonce":"${nonce}","burnTxHash":"${nonce}","x":${DEEP_ARRAY}}`],
    ["/verify", "legacy body with an array nested 5,000 deep", `{"challengeNonce":"${nonce}","burnTxHash":"${nonce}","x":${DEEP_ARRAY}}`],
  ])("%s answers a %s with malformed_payload, and nothing changes", async (path, _label, body) => {
    const route = path === "/verify" ? "verify" : "settle";
    const { response, breach } = await probe(route, post(path, body));
    expect(breach).toBeUndefined();
    expect(response.status).toBe(200);
    expect(parseBody(response)).toMatchObject(
      route === "verify" ? { isValid: false, invalidReason: MALFORMED_PAYLOAD } : { success: false, errorReason: MALFORMED_PAYLOAD },
    );
  });

  it("answers x402 bodies whose genuine payload carries 1e400 or a deep array with malformed_payload", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const payload = await signPermitPayment(stack, requirements, stack.deployment.accounts.payer.privateKey);
    const genuine = JSON.stringify(facilitatorBody(requirements, payload));
    const withFragment = (fragment: string) => genuine.replace('"payload":{', `"payload":{"x":${fragment},`);
    for (const [path, fragment] of [
      ["/verify", "1e400"],
      ["/settle", "-1e400"],
      ["/verify", DEEP_ARRAY],
      ["/settle", DEEP_ARRAY],
    ] as const) {
      const route = path === "/verify" ? "verify" : "settle";
      const { response, breach } = await probe(route, post(path, withFragment(fragment)));
      expect(breach).toBeUndefined();
      expect(parseBody(response)?.[route === "verify" ? "invalidReason" : "errorReason"]).toBe(MALFORMED_PAYLOAD);
    }
    // The genuine payload is untouched by all of that and still verifies.
    expect(parseBody(await send(post("/verify", genuine)))).toMatchObject({ isValid: true });
  });

  it("takes a genuine permit payload whose payer is written in capitals as the same payer, without quoting it in a log line", async () => {
    const requirements = await requestOffer(daemon, "1000");
    const payer = stack.deployment.accounts.payer;
    const payload = await signPermitPayment(stack, requirements, payer.privateKey);
    const shouted = JSON.stringify(facilitatorBody(requirements, { ...payload, payer: `0x${payload.payer.slice(2).toUpperCase()}` }));
    const verified = await send(post("/verify", shouted));
    expect(verified.status).toBe(200);
    expect(parseBody(verified)).toEqual({ isValid: true, payer: payer.address });
    // The echoed offer's addresses in capitals are the same offer too.
    const capitals = (address: string) => `0x${address.slice(2).toUpperCase()}` as const;
    const shoutedOffer = { ...requirements, asset: capitals(requirements.asset), payTo: capitals(requirements.payTo) };
    const echoed = await send(post("/verify", JSON.stringify(facilitatorBody(shoutedOffer, { ...payload, payer: capitals(payload.payer) }))));
    expect(parseBody(echoed)).toEqual({ isValid: true, payer: payer.address });
    const settled = await send(post("/settle", shouted));
    expect(settled.status).toBe(200);
    expect(parseBody(settled)).toMatchObject({ success: true, payer: payer.address });
    const payerHex = payer.address.slice(2).toLowerCase();
    expect(daemon.logs.filter((line) => line.toLowerCase().includes(payerHex))).toEqual([]);
  });

  it.each([
    ["zero", "0", /quoted amount is zero/],
    ["above 2^248 - 1", (1n << 248n).toString(), /2\^248 - 1/],
    ["at 2^248 - 1, whose quoted total with the fee exceeds it", ((1n << 248n) - 1n).toString(), /2\^248 - 1/],
  ])("/challenge refuses an amount %s with a clear 400 and issues nothing", async (_label, amount, message) => {
    const { response, breach } = await probe("challenge", post("/challenge", JSON.stringify({ amount })));
    expect(breach).toBeUndefined();
    expect(response.status).toBe(400);
    expect(parseBody(response)?.error).toMatch(message);
  });
});

describe(`seeded fuzz (${FUZZ_CASES} requests, seed ${FUZZ_SEED.toString(16)})`, () => {
  it("generates the same requests from the same seed, and others from another", () => {
    const bases = { x402Permit: { a: "0x01" }, x402SelfTransfer: { b: [1] }, legacyPermit: { c: "0x02" }, legacySelfTransfer: { d: null } };
    const generate = (seed: number) => generateHostileRequests({ seed, count: 50, bases, adminToken: "t".repeat(40) });
    expect(generate(FUZZ_SEED)).toEqual(generate(FUZZ_SEED));
    expect(generate(FUZZ_SEED).map((request) => request.label)).not.toEqual(generate(FUZZ_SEED + 1).map((request) => request.label));
  });

  it("answers every request below 500, with a reason code on the money routes, and changes nothing on refusal", async () => {
    const payerKey = stack.deployment.accounts.payer2.privateKey;
    const permitOffer: PaymentRequirements = await requestOffer(daemon, "1000");
    const transferOffer: PaymentRequirements = await requestOffer(daemon, "1000");
    const permitPayload = await signPermitPayment(stack, permitOffer, payerKey);
    const selfTransferPayload = { challengeNonce: transferOffer.extra.challengeNonce, burnTxHash: await broadcastBurn(stack, transferOffer, payerKey) };
    const requests = generateHostileRequests({
      seed: FUZZ_SEED,
      count: FUZZ_CASES,
      adminToken: stack.env.SVC_ADMIN_TOKEN ?? "",
      bases: {
        x402Permit: facilitatorBody(permitOffer, permitPayload),
        x402SelfTransfer: facilitatorBody(transferOffer, selfTransferPayload),
        legacyPermit: permitPayload,
        legacySelfTransfer: selfTransferPayload,
      },
    });

    const breaches: string[] = [];
    const statuses = new Map<number, number>();
    for (const { label, route, request } of requests) {
      const { response, breach } = await probe(route, request);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (breach !== undefined) breaches.push(`${label}: ${breach}`);
    }
    expect(breaches).toEqual([]);
    // The fuzz reached past the framing: most answers are protocol verdicts, and the refusals were exercised.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(FUZZ_CASES / 4);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(FUZZ_CASES / 20);
    expect(daemon.logs.filter((line) => line.includes('"http_error"'))).toEqual([]);
    // No request field is echoed into the log: markers only the hostile bodies carry never appear in a line.
    const echoed = ["polluted", "x".repeat(64), "\uff58", "ｘ", "Infinity"];
    expect(daemon.logs.filter((line) => echoed.some((marker) => line.includes(marker)))).toEqual([]);
  });
});
