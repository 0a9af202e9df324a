/**
 * Hostile input against a real daemon on a real anvil stack: a seeded fuzz over `/challenge`, `/verify`,
 * `/settle` (x402 and legacy bodies) and `/admin/*`, plus the known-bad requests and mutated genuine payments
 * as fixed cases. Every answer must be below 500; `/verify` and `/settle` answer a JSON body with a reason code
 * or refuse the body with a 4xx; a request that changes what the payment binds must be refused; and nothing
 * but the acceptance of a payment that may be accepted may change the admin challenge counts, the settlement
 * book, the journal's size, the token's transfer count or the relayer's nonce.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import {
  BURN_RECEIPT_MISSING,
  INVALID_BURN_AUTHORIZATION,
  INVALID_PERMIT_SIGNATURE,
  MALFORMED_PAYLOAD,
  PERMIT_VALUE_MISMATCH,
  type PaymentRequirements,
  REASON_CODES,
  REQUIREMENTS_MISMATCH,
  TRANSFER_BELOW_AMOUNT,
  UNKNOWN_CHALLENGE,
  zerc20TokenAbi,
} from "@svc/scheme";
import { keccak256, toHex, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
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

/**
 * The state a refused request must leave alone: the challenge counts, the settlement book (no accepted entry),
 * the journal's size, and the chain: the token's `index()` counts every transfer, so a relayed burn moves it,
 * and the relayer's pending nonce counts every transaction the daemon sent, a reverted one included.
 */
async function snapshotState(): Promise<string> {
  const [challenges, settlements, journal, tokenTransfers, relayerNonce] = await Promise.all([
    adminGet(stack, daemon, "/admin/challenges"),
    adminGet(stack, daemon, "/admin/settlements"),
    stat(journalPath).then(
      (file) => file.size,
      () => 0,
    ),
    stack.client.readContract({ address: stack.deployment.token, abi: zerc20TokenAbi, functionName: "index" }),
    stack.client.getTransactionCount({ address: privateKeyToAddress(stack.env.SVC_RELAYER_PK as Hex), blockTag: "pending" }),
  ]);
  // Only the counts requests can move: a field that changes on its own (a pool refilling) is no evidence.
  return JSON.stringify({
    open: challenges.open,
    retainedExpired: challenges.retainedExpired,
    settlements,
    journalBytes: journal,
    tokenTransfers: tokenTransfers.toString(),
    relayerNonce,
  });
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

/** True when the answer refuses: a 4xx, `isValid: false`, or `success: false` other than a pending burn (an offer issued by `/challenge` is no refusal). */
function isRefusal(route: HostileRequest["route"], response: RawResponse): boolean {
  if (response.status >= 400) return true;
  const body = parseBody(response);
  if (route === "verify") return body?.isValid === false;
  if (route === "settle") return body?.success === false && body?.errorReason !== "pending_burn";
  return false;
}

/** What one probe found: the answer, what broke the contract (if anything), and whether a settle was accepted and moved the state. */
type Probed = { response: RawResponse; breach: string | undefined; settledChange: boolean };

/**
 * Sends `request` and checks the answer's contract; that a request which must be refused is refused (an
 * acceptance is a breach, whatever it changed); and that the state did not move, unless `/settle` accepted a
 * payment that may be accepted (`settledChange`: the caller checks what changed).
 */
async function probe(route: HostileRequest["route"], request: RawRequest, mustRefuse = true): Promise<Probed> {
  const before = await snapshotState();
  const response = await send(request);
  const after = await snapshotState();
  const breach = contractBreach(route, response);
  if (breach !== undefined) return { response, breach, settledChange: false };
  const refused = isRefusal(route, response);
  if (mustRefuse && !refused && route !== "admin") {
    return { response, breach: `accepted a request that must be refused: ${response.status} ${response.body.slice(0, 200)}`, settledChange: false };
  }
  if (after === before) return { response, breach: undefined, settledChange: false };
  if (route === "settle" && !refused) return { response, breach: undefined, settledChange: true };
  return { response, breach: `state changed (status ${response.status}, ${refused ? "a refusal" : "no verdict that may change it"})`, settledChange: false };
}

/** `hex` with the digit at `index` changed: another value of the same shape. */
const alterDigit = (hex: string, index = 10): Hex => `${hex.slice(0, index)}${hex[index] === "0" ? "1" : "0"}${hex.slice(index + 1)}` as Hex;

/** A body of the genuine payment, taken apart so a case can change one thing in a copy. */
type Body = ReturnType<typeof facilitatorBody> & { paymentPayload: { payload: Record<string, any> } };

/** A fresh permit payment by the payer: the genuine body. */
async function permitPayment(): Promise<Body> {
  const requirements = await requestOffer(daemon, "1000");
  return facilitatorBody(requirements, await signPermitPayment(stack, requirements, stack.deployment.accounts.payer.privateKey)) as Body;
}

/** A fresh self-transfer payment by the payer, its burn on the chain: the genuine body. */
async function selfTransferPayment(): Promise<Body> {
  const requirements = await requestOffer(daemon, "1000");
  const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
  return facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }) as Body;
}

/** Both copies of the offer in a body (the requirements and the payer's echo). */
const offersOf = (body: Body) => [body.paymentRequirements, body.paymentPayload.accepted];

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

describe("mutated genuine payments", () => {
  const cases: [string, string, () => Promise<Body>, (body: Body) => Promise<void> | void][] = [
    [
      "a permit for one unit less than the amount",
      PERMIT_VALUE_MISMATCH,
      permitPayment,
      (body) => {
        body.paymentPayload.payload.permit.value = (BigInt(body.paymentPayload.payload.permit.value) - 1n).toString();
      },
    ],
    [
      "a permit with one digit of s altered",
      INVALID_PERMIT_SIGNATURE,
      permitPayment,
      (body) => {
        body.paymentPayload.payload.permit.s = alterDigit(body.paymentPayload.payload.permit.s);
      },
    ],
    [
      "a burn authorization with one digit altered",
      INVALID_BURN_AUTHORIZATION,
      permitPayment,
      (body) => {
        body.paymentPayload.payload.burnAuthSig = alterDigit(body.paymentPayload.payload.burnAuthSig);
      },
    ],
    [
      "an offer whose amount is one unit more",
      REQUIREMENTS_MISMATCH,
      permitPayment,
      (body) => {
        for (const offer of offersOf(body)) offer.amount = (BigInt(offer.amount) + 1n).toString();
      },
    ],
    [
      "an offer paying another address",
      REQUIREMENTS_MISMATCH,
      permitPayment,
      (body) => {
        for (const offer of offersOf(body)) offer.payTo = stack.deployment.accounts.payee.address;
      },
    ],
    [
      "a challenge never issued",
      UNKNOWN_CHALLENGE,
      permitPayment,
      (body) => {
        const never = keccak256(toHex("a challenge nobody issued"));
        body.paymentPayload.payload.challengeNonce = never;
        for (const offer of offersOf(body)) offer.extra.challengeNonce = never;
      },
    ],
    [
      "a burn transaction hash with one digit altered",
      BURN_RECEIPT_MISSING,
      selfTransferPayment,
      (body) => {
        body.paymentPayload.payload.burnTxHash = alterDigit(body.paymentPayload.payload.burnTxHash);
      },
    ],
    [
      "another offer's real burn",
      TRANSFER_BELOW_AMOUNT,
      selfTransferPayment,
      async (body) => {
        body.paymentPayload.payload.burnTxHash = (await selfTransferPayment()).paymentPayload.payload.burnTxHash;
      },
    ],
  ];

  it.each(cases)(
    "refuses %s with %s on /verify and /settle, settles and burns nothing, and the genuine payment still verifies",
    async (_label, reason, genuine, mutate) => {
      const body = await genuine();
      const mutated = structuredClone(body);
      await mutate(mutated);
      for (const route of ["verify", "settle"] as const) {
        const { response, breach } = await probe(route, post(`/${route}`, JSON.stringify(mutated)));
        expect(breach).toBeUndefined();
        expect(response.status).toBe(200);
        expect(parseBody(response)).toMatchObject(route === "verify" ? { isValid: false, invalidReason: reason } : { success: false, errorReason: reason });
      }
      const settled = await adminGet(stack, daemon, "/admin/settlements");
      expect(settled.settlements.map((entry: { challengeNonce: string }) => entry.challengeNonce)).not.toContain(body.paymentPayload.payload.challengeNonce);
      // The refusal was the mutation's: the payment it was made from is good.
      expect(parseBody(await send(post("/verify", JSON.stringify(body))))).toMatchObject({ isValid: true });
    },
  );
});

describe(`seeded fuzz (${FUZZ_CASES} requests, seed ${FUZZ_SEED.toString(16)})`, () => {
  it("generates the same requests from the same seed, and others from another", () => {
    const bases = { x402Permit: { a: "0x01" }, x402SelfTransfer: { b: [1] }, legacyPermit: { c: "0x02" }, legacySelfTransfer: { d: null } };
    const generate = (seed: number) => generateHostileRequests({ seed, count: 50, bases, adminToken: "t".repeat(40) });
    expect(generate(FUZZ_SEED)).toEqual(generate(FUZZ_SEED));
    expect(generate(FUZZ_SEED).map((request) => request.label)).not.toEqual(generate(FUZZ_SEED + 1).map((request) => request.label));
  });

  it("answers every request below 500, with a reason code on the money routes, refuses every altered payment, and changes nothing but by an accepted genuine one", async () => {
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

    const nonceList = async (): Promise<string[]> =>
      ((await adminGet(stack, daemon, "/admin/settlements")).settlements as { challengeNonce: string }[]).map((entry) => entry.challengeNonce.toLowerCase());
    // The payments the earlier cases settled, and the two the fuzz's genuine payments may settle.
    const settleable = [...(await nonceList()), ...[permitOffer, transferOffer].map((offer) => offer.extra.challengeNonce.toLowerCase())];

    const breaches: string[] = [];
    const statuses = new Map<number, number>();
    let acceptedUnaltered = 0;
    // Every request that must be refused goes first, while both genuine challenges are still open: an altered
    // payment meets the checks of a fresh challenge, not the `payload_conflict` of a settled one.
    const ordered = [...requests.filter((hostile) => hostile.mustRefuse), ...requests.filter((hostile) => !hostile.mustRefuse)];
    for (const { label, route, request, mustRefuse } of ordered) {
      const { response, breach, settledChange } = await probe(route, request, mustRefuse);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (breach !== undefined) breaches.push(`${label}: ${breach}`);
      if ((route === "verify" || route === "settle") && !isRefusal(route, response)) acceptedUnaltered++;
      if (settledChange) {
        // An accepted payment that was left as it was may settle its own challenge, and nothing else.
        const strangers = (await nonceList()).filter((nonce) => !settleable.includes(nonce));
        if (strangers.length > 0) breaches.push(`${label}: settled ${strangers.join(", ")}`);
      }
    }
    expect(breaches).toEqual([]);
    // Whatever was accepted was the genuine payment: it settles now (again or for the first time), where any
    // other payment accepted for its challenge would make it a payload_conflict.
    for (const genuine of [facilitatorBody(permitOffer, permitPayload), facilitatorBody(transferOffer, selfTransferPayload)]) {
      expect(parseBody(await send(post("/settle", JSON.stringify(genuine))))).toMatchObject({ success: true });
    }
    // Both kinds were exercised: altered payments refused, payments left as they were accepted.
    expect(requests.filter((hostile) => hostile.mustRefuse && (hostile.route === "verify" || hostile.route === "settle")).length).toBeGreaterThan(
      FUZZ_CASES / 4,
    );
    expect(acceptedUnaltered).toBeGreaterThan(0);
    // The fuzz reached past the framing: most answers are protocol verdicts, and the refusals were exercised.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(FUZZ_CASES / 4);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(FUZZ_CASES / 20);
    expect(daemon.logs.filter((line) => line.includes('"http_error"'))).toEqual([]);
    // No request field is echoed into the log: markers only the hostile bodies carry never appear in a line.
    const echoed = ["polluted", "x".repeat(64), "\uff58", "ｘ", "Infinity"];
    expect(daemon.logs.filter((line) => echoed.some((marker) => line.includes(marker)))).toEqual([]);
  });
});
