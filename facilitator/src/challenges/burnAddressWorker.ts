/**
 * One worker thread running the burn-address proof-of-work search (2^12 or 2^16 Poseidon hashes by protocol version), so the
 * daemon's event loop never runs it. The search is the scheme's own (`PoseidonImplementation.searchBurnNonce`):
 * the native addon runs the whole loop in one call, `poseidon-lite` is the fallback.
 *
 * The worker is created from an inline CommonJS source (`eval: true`) rather than a module file: a file
 * path would differ between the TypeScript sources under vitest and the compiled `dist/` under node, while
 * inline source plus an absolute URL of a scheme entry works the same in both. That entry is the scheme's
 * Poseidon module alone (`@svc/scheme/poseidon`), not its main entry: the main entry loads viem and the x402
 * types, which a thread that only hashes never uses and which cost each live thread about 30 MiB of heap.
 * The pool still re-checks
 * every answer with the scheme's `poseidon-lite` hash (one hash). Only the recipient field element and the
 * secret base cross the thread boundary; the seed never does.
 *
 * The thread is handed the implementation and the search path the main thread chose (not left to read the
 * environment itself: the daemon chooses from the environment it was given), and reports what it loaded, so
 * the path `status` shows is the path the searches run on.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { BN254_FIELD_MODULUS, NativePoseidonPathSchema, poseidonChoice, type PoseidonImplementation, zerc20Protocol } from "@svc/scheme";
import { z } from "zod";

import type { BurnSecretInputs } from "./burnSecretInputs.js";
import { BurnAddressWorkerError } from "./errors.js";

/**
 * The nice value of a worker thread on Linux, where it applies to the calling thread alone: derivation uses
 * every otherwise idle core, but a request-path thread that wakes up runs first instead of queueing behind a
 * proof-of-work search. (Elsewhere the call would renice the whole process, so it is skipped.)
 */
export const BURN_ADDRESS_WORKER_NICE = 10;

// The thread lowers its own priority, loads the scheme's Poseidon module, builds the implementation and path the main thread
// chose (`native` and a named path fail loudly rather than silently falling back), says what it loaded, then
// answers jobs one after another, in order.
const WORKER_SOURCE = `"use strict";
const { parentPort, workerData } = require("node:worker_threads");
if (workerData.nice !== undefined) {
  try { require("node:os").setPriority(0, workerData.nice); } catch {}
}
import(workerData.schemeUrl).then((scheme) => {
  const { implementation } = scheme.selectPoseidon(workerData.selection, { path: workerData.path });
  parentPort.postMessage({ loaded: { name: implementation.name, path: implementation.path ?? null } });
  const reference = scheme.selectPoseidon("js").implementation;
  parentPort.on("message", (job) => {
    const nonce = implementation.searchBurnNonce(job.prefix, job.secretBase, job.powBits);
    const secret = (job.secretBase + nonce) % workerData.fieldModulus;
    const hash = job.prefix.length === 1 ? reference.poseidon2(job.prefix[0], secret) : reference.poseidon3(job.prefix[0], job.prefix[1], secret);
    parentPort.postMessage({ id: job.id, nonce, hash });
  });
}).catch((error) => { setImmediate(() => { throw error; }); });
`;

const resultSchema = z.object({ id: z.number().int().nonnegative(), nonce: z.bigint().nonnegative(), hash: z.bigint().nonnegative() });

/**
 * A search's answer: the nonce, and the burn-address hash of the secret it gives, computed on the worker thread
 * with `poseidon-lite` (the reference), so a wrong answer of the native search is caught off the event loop.
 */
export type BurnNonce = { nonce: bigint; hash: bigint };

const loadedSchema = z.object({ loaded: z.object({ name: z.enum(["native", "poseidon-lite"]), path: NativePoseidonPathSchema.nullable() }) });

/** What a worker searches with: an implementation's name and, for the native addon, its search path. */
export type WorkerPoseidon = Pick<PoseidonImplementation, "name" | "path">;

/** What a worker thread reports it loaded; `path` is `null` for `poseidon-lite`. */
export type LoadedPoseidon = z.infer<typeof loadedSchema>["loaded"];

type Pending = { resolve: (found: BurnNonce) => void; reject: (error: unknown) => void };

let schemeUrl: string | undefined;

/** The URL of the scheme's Poseidon module, the one the scheme entry this module imports re-exports, so both threads run the same code. */
function resolveSchemeUrl(): string {
  schemeUrl ??= pathToFileURL(createRequire(import.meta.url).resolve("@svc/scheme/poseidon")).href;
  return schemeUrl;
}

/**
 * A worker thread that answers proof-of-work searches with the nonce it found, one job at a time.
 *
 * @example
 * const worker = new BurnAddressWorker();
 * const { nonce, hash } = await worker.search(burnSecretInputs(seed, target, paymentId));
 * await worker.terminate();
 */
export class BurnAddressWorker {
  /** The Poseidon implementation (and search path) this worker was asked to search with. */
  readonly implementation: WorkerPoseidon;
  /** Resolves with what the thread loaded; rejects when it stops first (a path it cannot load included). */
  readonly loaded: Promise<LoadedPoseidon>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #stopped: BurnAddressWorkerError | undefined;
  #onLoaded: { resolve: (loaded: LoadedPoseidon) => void; reject: (error: unknown) => void } | undefined;

  /** `implementation` defaults to the process's `poseidonChoice()`, so every thread hashes alike. */
  constructor(implementation: WorkerPoseidon = poseidonChoice().implementation) {
    this.implementation = { name: implementation.name, path: implementation.path };
    this.loaded = new Promise<LoadedPoseidon>((resolve, reject) => {
      this.#onLoaded = { resolve, reject };
    });
    // Waiting for the report is optional: a thread that dies before loading fails its searches as well.
    this.loaded.catch(() => undefined);
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        schemeUrl: resolveSchemeUrl(),
        selection: implementation.name === "native" ? "native" : "js",
        path: implementation.name === "native" ? implementation.path : undefined,
        nice: process.platform === "linux" ? BURN_ADDRESS_WORKER_NICE : undefined,
        fieldModulus: BN254_FIELD_MODULUS,
      },
    });
    // An idle pool must not keep the process alive; a caller awaiting a search holds its own timer.
    this.#worker.unref();
    this.#worker.on("message", (message: unknown) => this.#answer(message));
    this.#worker.on("error", (error) => this.#stop(new BurnAddressWorkerError({ reason: "it threw", cause: error })));
    this.#worker.on("exit", (code) => {
      this.#stop(new BurnAddressWorkerError({ reason: `it exited with code ${code}` }));
    });
  }

  /** Whether the thread is still running and accepting searches. */
  get alive(): boolean {
    return this.#stopped === undefined;
  }

  /** Searches not answered yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Finds the smallest nonce whose burn-address hash (of the inputs' protocol version) meets its proof of work,
   * with that hash as `poseidon-lite` computes it; the caller still checks the hash's proof-of-work bits.
   */
  search(inputs: Pick<BurnSecretInputs, "protocol" | "recipientFr" | "secretBase">): Promise<BurnNonce> {
    if (this.#stopped !== undefined) return Promise.reject(this.#stopped);
    const protocol = zerc20Protocol(inputs.protocol);
    const id = this.#nextId++;
    return new Promise<BurnNonce>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({
        id,
        prefix: protocol.burnAddressPrefix(inputs.recipientFr),
        secretBase: inputs.secretBase,
        powBits: protocol.burnAddressPowBits,
      });
    });
  }

  /** Stops the thread; unanswered searches reject with {@link BurnAddressWorkerError}. */
  async terminate(): Promise<void> {
    this.#stop(new BurnAddressWorkerError({ reason: "it was terminated" }));
    await this.#worker.terminate();
  }

  #answer(message: unknown): void {
    const loaded = loadedSchema.safeParse(message);
    if (loaded.success) {
      this.#onLoaded?.resolve(loaded.data.loaded);
      this.#onLoaded = undefined;
      return;
    }
    const parsed = resultSchema.safeParse(message);
    if (!parsed.success) {
      this.#stop(new BurnAddressWorkerError({ reason: "it sent a malformed result" }));
      void this.#worker.terminate();
      return;
    }
    const pending = this.#pending.get(parsed.data.id);
    this.#pending.delete(parsed.data.id);
    pending?.resolve({ nonce: parsed.data.nonce, hash: parsed.data.hash });
  }

  #stop(error: BurnAddressWorkerError): void {
    this.#stopped ??= error;
    this.#onLoaded?.reject(this.#stopped);
    this.#onLoaded = undefined;
    for (const pending of this.#pending.values()) pending.reject(this.#stopped);
    this.#pending.clear();
  }
}
