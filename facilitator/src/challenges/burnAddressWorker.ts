/**
 * One worker thread running the burn-address proof-of-work search (about 4096 Poseidon hashes, a second or
 * more of CPU), so the daemon's event loop never runs it.
 *
 * The worker is created from an inline CommonJS source (`eval: true`) rather than a module file: a file
 * path would differ between the TypeScript sources under vitest and the compiled `dist/` under node, while
 * inline source plus an absolute path to `poseidon-lite` works the same in both. The inline search is a
 * second copy of the scheme's rule, so its answers are not trusted: the pool re-checks every result with the
 * scheme's own functions. Only the recipient field element and the secret base cross the thread boundary;
 * the seed never does.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { BN254_FIELD_MODULUS, BURN_ADDRESS_POW_BITS } from "@svc/scheme";
import { z } from "zod";

import { BurnAddressWorkerError } from "../errors/challenges.js";

// Same rule as the scheme's `deriveBurnAddress`: the smallest nonce such that bits 160..171 of
// poseidon2([recipientFr, (secretBase + nonce) mod p]) are zero. Jobs run one after another, in order.
const WORKER_SOURCE = `"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { poseidon2 } = require(workerData.poseidonPath);
const modulus = workerData.modulus;
const powMask = (1n << BigInt(workerData.powBits)) - 1n;
parentPort.on("message", (job) => {
  let nonce = 0n;
  while (((poseidon2([job.recipientFr, (job.secretBase + nonce) % modulus]) >> 160n) & powMask) !== 0n) nonce += 1n;
  parentPort.postMessage({ id: job.id, nonce });
});
`;

const resultSchema = z.object({ id: z.number().int().nonnegative(), nonce: z.bigint().nonnegative() });

type Pending = { resolve: (nonce: bigint) => void; reject: (error: unknown) => void };

let poseidonPath: string | undefined;

/** Resolves the copy of `poseidon-lite` the scheme itself uses, so both sides hash with the same code. */
function resolvePoseidonPath(): string {
  if (poseidonPath === undefined) {
    const schemeEntry = createRequire(import.meta.url).resolve("@svc/scheme");
    poseidonPath = createRequire(schemeEntry).resolve("poseidon-lite/poseidon2");
  }
  return poseidonPath;
}

/**
 * A worker thread that answers proof-of-work searches with the nonce it found, one job at a time.
 *
 * @example
 * const worker = new BurnAddressWorker();
 * const nonce = await worker.search(recipientFr, secretBase);
 * await worker.terminate();
 */
export class BurnAddressWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #stopped: BurnAddressWorkerError | undefined;

  constructor() {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { poseidonPath: resolvePoseidonPath(), modulus: BN254_FIELD_MODULUS, powBits: BURN_ADDRESS_POW_BITS },
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

  /** Finds the smallest nonce whose `Poseidon(recipientFr, secretBase + nonce)` meets the proof of work. */
  search(recipientFr: bigint, secretBase: bigint): Promise<bigint> {
    if (this.#stopped !== undefined) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise<bigint>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, recipientFr, secretBase });
    });
  }

  /** Stops the thread; unanswered searches reject with {@link BurnAddressWorkerError}. */
  async terminate(): Promise<void> {
    this.#stop(new BurnAddressWorkerError({ reason: "it was terminated" }));
    await this.#worker.terminate();
  }

  #answer(message: unknown): void {
    const parsed = resultSchema.safeParse(message);
    if (!parsed.success) {
      this.#stop(new BurnAddressWorkerError({ reason: "it sent a malformed result" }));
      void this.#worker.terminate();
      return;
    }
    const pending = this.#pending.get(parsed.data.id);
    this.#pending.delete(parsed.data.id);
    pending?.resolve(parsed.data.nonce);
  }

  #stop(error: BurnAddressWorkerError): void {
    this.#stopped ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#stopped);
    this.#pending.clear();
  }
}
