import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import {
  decodeDeciderWithdrawProof,
  decodeGroth16Proof,
  FIXTURE_PROVER_PRIVATE_KEY,
  signFixtureDeciderWithdrawProof,
  signFixtureGroth16Proof,
} from "@svc/scheme";
import { hexToBigInt, size, type Hex } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpProver, type CreateHttpProverParameters } from "./createHttpProver.js";
import { ProverError, ProverFailedError, ProverOutputInvalidError, ProverTimeoutError, ProverUnavailableError, ProverWitnessRejectedError } from "./errors.js";
import { PROVER_FAILURE_REASON } from "./proverFailureReasons.js";
import { encodeProverWitness, type ProverWitness, ProverWitnessSchema } from "./proverWitness.js";
import { buildBatchWithdrawProofInputs, buildWithdrawProofInputs, secretSpellings } from "./testing/buildWithdrawProofInputs.js";
import { pollUntil } from "./testing/pollUntil.js";

const single = buildWithdrawProofInputs();
const batch = buildBatchWithdrawProofInputs();
const PASSWORD = "s3cret-prover-password";
const API_KEY = "k9Q2v7X4m1Z8p3L6";

/** One request the test service received. */
type Received = { path: string | undefined; headers: IncomingMessage["headers"]; witness: ProverWitness; aborted: () => boolean };
type Handler = (received: Received, response: ServerResponse) => void | Promise<void>;

let server: Server;
let base: string;
let handler: Handler;
let received: Received[] = [];

/** A fixture proof of the witness, as a real prover service would compute a real one; `other` bumps one public input. */
async function proofOf(witness: ProverWitness, other?: "root" | "value"): Promise<Hex> {
  const chainId = BigInt(witness.chain_id);
  const root = BigInt(witness.root) + (other === "root" ? 1n : 0n);
  const value = BigInt(witness.value) + (other === "value" ? 1n : 0n);
  const recipientHash = BigInt(witness.recipient_hash);
  if (witness.circuit === "single")
    return signFixtureGroth16Proof({ privateKey: FIXTURE_PROVER_PRIVATE_KEY, chainId, publicInputs: [root, recipientHash, value] });
  const lastLeafPosition = witness.transfers.reduce((max, transfer) => Math.max(max, transfer.leaf_index), 0);
  return signFixtureDeciderWithdrawProof({
    privateKey: FIXTURE_PROVER_PRIVATE_KEY,
    chainId,
    circuit: "withdraw_local",
    proof: { steps: BigInt(witness.transfers.length), root, recipientHash, lastLeafPosition: BigInt(lastLeafPosition), totalValue: value },
  });
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(typeof body === "string" ? body : JSON.stringify(body));
}

const proving: Handler = async ({ witness }, response) => answer(response, 200, { proof: await proofOf(witness), took_ms: 1 });

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    let aborted = false;
    response.on("close", () => {
      aborted = !response.writableFinished;
    });
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const witness = ProverWitnessSchema.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      const entry = { path: request.url, headers: request.headers, witness, aborted: () => aborted };
      received.push(entry);
      void Promise.resolve(handler(entry, response)).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  handler = proving;
  received = [];
});

function proverWith(overrides: Partial<CreateHttpProverParameters> = {}) {
  return createHttpProver({ url: `${base}/prove`, chainId: 31337, timeoutMs: 30_000, concurrency: 1, ...overrides });
}

/** The error a proof attempt rejects with; fails the test when it resolves instead. */
async function failureOf(attempt: Promise<unknown>): Promise<ProverError> {
  const outcome = await attempt.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ProverError)) throw new Error(`expected a ProverError, got ${inspect(outcome)}`);
  // Neither the witness's secret nor the URL's credentials reach the error's text, fields or causes.
  const everything = `${inspect(outcome, { depth: 10 })}\n${outcome.message}\n${outcome.details}`;
  for (const spelling of [...secretSpellings(), PASSWORD, API_KEY]) expect(everything).not.toContain(spelling);
  return outcome;
}

describe("createHttpProver: a service that proves", () => {
  it("POSTs the witness as JSON and returns the single proof of its 200 answer, checked against the witness", async () => {
    const proof = await proverWith().proveSingle(single);
    expect(size(proof)).toBe(352);
    expect(decodeGroth16Proof(proof).publicInputs).toEqual([single.root, hexToBigInt(single.recipientHash), single.value]);
    const [request] = received;
    expect(request?.path).toBe("/prove");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.witness).toEqual(encodeProverWitness({ inputs: single, circuit: "single", chainId: 31337 }));
  });

  it("returns a batch proof whose public words are the witness's", async () => {
    const proof = await proverWith().proveBatch(batch);
    expect(decodeDeciderWithdrawProof(proof)).toMatchObject({ root: batch.root, recipientHash: hexToBigInt(batch.recipientHash), totalValue: 1000n });
    expect(received[0]?.witness.circuit).toBe("batch");
  });

  it("sends userinfo as Basic authorization and a key in the query as written", async () => {
    const url = `http://prover:${PASSWORD}@${base.slice("http://".length)}/v1/prove?api_key=${API_KEY}`;
    await proverWith({ url }).proveSingle(single);
    const [request] = received;
    expect(request?.path).toBe(`/v1/prove?api_key=${API_KEY}`);
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`prover:${PASSWORD}`).toString("base64")}`);
  });
});

describe("createHttpProver: failures, each with its reason code", () => {
  it("prover_unavailable: nothing listens at the URL (and the URL's credentials are not named)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(proverWith({ url: `http://prover:${PASSWORD}@127.0.0.1:${port}/prove?api_key=${API_KEY}` }).proveSingle(single));
    expect(error).toBeInstanceOf(ProverUnavailableError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.unavailable, adapter: "http", code: "ECONNREFUSED" });
    expect(error.message).toMatchInlineSnapshot(`"Cannot reach the prover service (ECONNREFUSED) for a single proof."`);
  });

  it("prover_failed: a 500 whose body echoes the witness, counted and never quoted", async () => {
    handler = ({ witness }, response) => answer(response, 500, { error: "out of memory", witness });
    const error = await failureOf(proverWith().proveSingle(single));
    expect(error).toBeInstanceOf(ProverFailedError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.failed, outcome: { status: 500 } });
    expect(error.message).toMatch(
      /^The prover service answered HTTP 500 for a single proof\.\n\nDetails: response body: \d{3,} bytes, not shown \(it may echo the witness\)$/,
    );
  });

  it("prover_witness_rejected: a 422, the service saying the circuit refuses the witness", async () => {
    handler = ({ witness }, response) => answer(response, 422, { error: "Assert Failed", witness });
    const error = await failureOf(proverWith().proveSingle(single));
    expect(error).toBeInstanceOf(ProverWitnessRejectedError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.witnessRejected, adapter: "http", circuit: "single", constraint: undefined });
    expect(error.message).toMatchInlineSnapshot(`"The circuit refuses the witness of this single proof: no proof of it exists."`);
  });

  it("prover_failed: a redirect, which is never followed (it would re-send the witness)", async () => {
    handler = (_request, response) => {
      response.writeHead(307, { location: `${base}/elsewhere` }).end();
    };
    const error = await failureOf(proverWith().proveSingle(single));
    expect(error).toMatchObject({ name: "ProverFailedError", reason: "prover_failed", outcome: { status: 307 } });
    expect(received.map((request) => request.path)).toEqual(["/prove"]);
  });

  it("prover_timeout: the service does not answer in time; the request is aborted", async () => {
    handler = () => {};
    const error = await failureOf(proverWith({ timeoutMs: 500 }).proveBatch(batch));
    expect(error).toBeInstanceOf(ProverTimeoutError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.timeout, circuit: "batch", timeoutMs: 500 });
    expect(error.message).toMatchInlineSnapshot(`"The prover service took longer than 500 ms for a batch proof and the request was aborted."`);
    await pollUntil(() => received[0]?.aborted() === true, { what: "the service saw the request aborted" });
  });

  it("prover_timeout: the service sends headers, then stalls in the body", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"proof": "0x');
    };
    const error = await failureOf(proverWith({ timeoutMs: 500 }).proveSingle(single));
    expect(error).toMatchObject({ name: "ProverTimeoutError", reason: "prover_timeout" });
  });

  it.each<[string, Handler, RegExp]>([
    [
      "a body that is not JSON (the witness echoed)",
      ({ witness }, response) => answer(response, 200, `witness: ${JSON.stringify(witness)}`),
      /^expected a JSON object \{"proof": "0x…"\}, got \d+ bytes of something else$/,
    ],
    ["JSON without a proof", (_request, response) => answer(response, 200, { status: "queued" }), /^expected a JSON object/],
    [
      "a proof of another root",
      async ({ witness }, response) => answer(response, 200, { proof: await proofOf(witness, "root") }),
      /^its public transfer root is not the witness's$/,
    ],
    [
      "a proof of another value",
      async ({ witness }, response) => answer(response, 200, { proof: await proofOf(witness, "value") }),
      /^its public value is not the witness's$/,
    ],
    [
      "a proof in a 202 (an asynchronous job API)",
      async ({ witness }, response) => answer(response, 202, { proof: await proofOf(witness) }),
      /^answered HTTP 202; a proof comes with 200$/,
    ],
    ["a body past 64 KiB", (_request, response) => answer(response, 200, { proof: `0x${"ab".repeat(40_000)}` }), /^a body of more than 65536 bytes$/],
  ])("prover_output_invalid: %s", async (_what, answerWith, problem) => {
    handler = answerWith;
    const error = await failureOf(proverWith().proveSingle(single));
    expect(error).toBeInstanceOf(ProverOutputInvalidError);
    expect(error).toMatchObject({ reason: PROVER_FAILURE_REASON.outputInvalid, problem: expect.stringMatching(problem) });
  });
});

describe("createHttpProver: concurrency and closing", () => {
  it("keeps at most prover.concurrency requests open at once, single and batch together", async () => {
    let open = 0;
    let most = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    handler = async (request, response) => {
      open++;
      most = Math.max(most, open);
      await released;
      open--;
      await proving(request, response);
    };
    const prover = proverWith({ concurrency: 2 });
    const proofs = Promise.all([
      prover.proveSingle(single),
      prover.proveBatch(batch),
      prover.proveSingle(single),
      prover.proveBatch(batch),
      prover.proveSingle(single),
    ]);
    await pollUntil(() => open === 2, { what: "two requests open" });
    release();
    expect(await proofs).toHaveLength(5);
    expect(received).toHaveLength(5);
    expect(most).toBe(2);
  });

  it("close() aborts an open request, answers prover_unavailable, and refuses later proofs", async () => {
    handler = () => {};
    const prover = proverWith();
    const open = failureOf(prover.proveSingle(single));
    const queued = failureOf(prover.proveBatch(batch));
    await pollUntil(() => received.length === 1, { what: "the request arrived" });
    await prover.close();
    expect(await open).toMatchObject({ name: "ProverUnavailableError", reason: "prover_unavailable", circuit: "single" });
    expect(await queued).toMatchObject({ name: "ProverUnavailableError", reason: "prover_unavailable", circuit: "batch" });
    await pollUntil(() => received[0]?.aborted() === true, { what: "the service saw the request aborted" });
    expect((await failureOf(prover.proveSingle(single))).message).toBe("The prover adapter is closed; no single proof was made.");
  });
});
