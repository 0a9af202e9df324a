/**
 * The HTTP prover adapter: POSTs the witness JSON (`proverWitness.ts`) to the configured URL and expects
 * `200 {"proof": "0x…"}`. HTTP 422 says the circuit refuses the witness (`prover_witness_rejected`), any other
 * non-2xx answer is `prover_failed`, any other 2xx or body is `prover_output_invalid`; redirects are not
 * followed (a redirect would re-send the witness elsewhere).
 *
 * The URL may carry credentials: userinfo becomes an `Authorization: Basic` header (fetch refuses it in the
 * URL), a key in the path or query is sent as written. The URL is never named in an error, and the response
 * body is never quoted (it may echo the witness, which carries the burn secret): at most its length.
 */
import { parseJsonText } from "@svc/scheme";
import type { Hex } from "viem";
import { z } from "zod";
import type { WithdrawProofInputs } from "../proverPort.js";
import { checkProverProof } from "./checkProverProof.js";
import { createSemaphore } from "./createSemaphore.js";
import {
  ProverFailedError,
  ProverOutputInvalidError,
  ProverTimeoutError,
  ProverUnavailableError,
  ProverWitnessRejectedError,
  type ProverErrorContext,
  unshownBytes,
  WITNESS_REJECTED_HTTP_STATUS,
} from "./errors.js";
import type { ProverAdapter, ProverLimits } from "./proverAdapter.js";
import { encodeProverWitness, type ProverCircuit } from "./proverWitness.js";

/** The largest response body read; a proof in hex is about 2 KiB. */
export const MAX_HTTP_RESPONSE_BYTES = 64 * 1024;

/** The answer a prover service gives: the proof, and whatever else it likes (ignored). */
export const ProverAnswerSchema = z.looseObject({ proof: z.string() });

/** The service to ask and its limits. */
export type CreateHttpProverParameters = ProverLimits & {
  /** `prover.url`: http or https, credentials allowed. */
  url: string;
  /** The chain of the token and verifier (`network.chain_id`), written into the witness. */
  chainId: number;
};

/**
 * Creates the HTTP prover adapter.
 *
 * @example
 * const prover = createHttpProver({ url: "https://prover.internal/prove", chainId: 8453, timeoutMs: 120_000, concurrency: 4 });
 * const proof = await prover.proveBatch(inputs);
 */
export function createHttpProver(parameters: CreateHttpProverParameters): ProverAdapter {
  const { target, authorization } = splitCredentials(parameters.url);
  const slots = createSemaphore(parameters.concurrency);
  const closing = new AbortController();
  const open = new Set<Promise<unknown>>();

  const request = async (context: ProverErrorContext, witness: string): Promise<string> => {
    const timeout = AbortSignal.timeout(parameters.timeoutMs);
    const signal = AbortSignal.any([timeout, closing.signal]);
    // Which of the two ended the request, checked whenever something throws.
    const stopped = (): Error | undefined => {
      if (closing.signal.aborted) return new ProverUnavailableError({ ...context, problem: "closed" });
      if (timeout.aborted) return new ProverTimeoutError({ ...context, timeoutMs: parameters.timeoutMs });
      return undefined;
    };
    let response: Response;
    try {
      response = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...(authorization ? { authorization } : {}) },
        body: witness,
        redirect: "manual",
        signal,
      });
    } catch (cause) {
      throw stopped() ?? new ProverUnavailableError({ ...context, problem: "unreachable", code: systemErrorCode(cause), cause });
    }
    let body: { bytes: number; text: string | undefined };
    try {
      body = await readCapped(response, MAX_HTTP_RESPONSE_BYTES);
    } catch (cause) {
      throw stopped() ?? new ProverUnavailableError({ ...context, problem: "unreachable", code: systemErrorCode(cause), cause });
    }
    if (response.status === WITNESS_REJECTED_HTTP_STATUS) throw new ProverWitnessRejectedError(context);
    if (response.status < 200 || response.status > 299) {
      const size = body.text === undefined ? `more than ${MAX_HTTP_RESPONSE_BYTES}` : body.bytes;
      throw new ProverFailedError({ ...context, outcome: { status: response.status }, unshown: unshownBytes("response body", size) });
    }
    const invalid = (problem: string) => new ProverOutputInvalidError({ ...context, problem });
    if (response.status !== 200) throw invalid(`answered HTTP ${response.status}; a proof comes with 200`);
    if (body.text === undefined) throw invalid(`a body of more than ${MAX_HTTP_RESPONSE_BYTES} bytes`);
    const answer = ProverAnswerSchema.safeParse(parseJsonText(body.text));
    if (!answer.success) throw invalid(`expected a JSON object {"proof": "0x…"}, got ${body.bytes} bytes of something else`);
    return answer.data.proof;
  };

  const prove = async (circuit: ProverCircuit, inputs: WithdrawProofInputs): Promise<Hex> => {
    const context: ProverErrorContext = { adapter: "http", circuit };
    const witness = JSON.stringify(encodeProverWitness({ inputs, circuit, chainId: parameters.chainId }));
    const release = await slots.acquire();
    if (release === undefined) throw new ProverUnavailableError({ ...context, problem: "closed" });
    const pending = request(context, witness);
    open.add(pending);
    try {
      return checkProverProof({ ...context, proof: await pending, inputs });
    } finally {
      open.delete(pending);
      release();
    }
  };

  return {
    proveSingle: (inputs) => prove("single", inputs),
    proveBatch: (inputs) => prove("batch", inputs),
    close: async () => {
      slots.close();
      closing.abort();
      await Promise.allSettled([...open]);
    },
  };
}

/** Moves `user:password@` out of the URL into a Basic authorization header value. */
function splitCredentials(url: string): { target: string; authorization: string | undefined } {
  const parsed = new URL(url);
  if (parsed.username === "" && parsed.password === "") return { target: parsed.href, authorization: undefined };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = "";
  parsed.password = "";
  return { target: parsed.href, authorization: `Basic ${Buffer.from(credentials).toString("base64")}` };
}

/** Reads the body up to `limit` bytes: its text, or `undefined` (and the stream cancelled) past the limit. */
async function readCapped(response: Response, limit: number): Promise<{ bytes: number; text: string | undefined }> {
  if (response.body === null) return { bytes: 0, text: "" };
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => {});
      return { bytes, text: undefined };
    }
    chunks.push(value);
  }
  return { bytes, text: Buffer.concat(chunks).toString("utf8") };
}

/** The system error code under fetch's `TypeError("fetch failed")` (`ECONNREFUSED`, `ENOTFOUND`, …). */
function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    if ("code" in current && typeof current.code === "string") return current.code;
    current = "cause" in current ? current.cause : undefined;
  }
  return undefined;
}
