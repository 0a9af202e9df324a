/**
 * One worker thread proving single teleports with snarkjs, so the daemon's event loop never runs a proof (a
 * second or more of CPU each). The thread takes the circuit files as shared memory (read once by
 * `loadCircuitFiles.ts`), lowers its own priority on Linux, computes the witness of the self-test statement
 * (`snarkjsSelfTest.ts`) to show the witness calculator proves the configured statement, reports the
 * witness's size, and then answers one job at a time: the witness calculator, then Groth16 on snarkjs's
 * single-threaded curve (the default one starts a thread pool of its own per process, which would contend with
 * `prover.concurrency` threads for the same cores).
 *
 * Like the burn-address worker it runs from an inline CommonJS source (`eval: true`) that requires snarkjs by
 * the absolute path this module resolves, so it works alike from the TypeScript sources and from `dist/`.
 * Whatever snarkjs or the witness calculator prints stays in the thread (it could quote the witness), and an
 * error crosses back only as a category and, for a failed constraint, its template and source line.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { SingleTeleportCircuitInput } from "@svc/scheme";
import { z } from "zod";

/** The nice value of a prover thread on Linux (where it applies to the thread alone): request-path threads run first. */
export const PROVER_THREAD_NICE = 10;

const WORKER_SOURCE = `"use strict";
const { parentPort, workerData } = require("node:worker_threads");
for (const name of ["log", "info", "warn", "error", "debug", "trace"]) console[name] = () => {};
if (workerData.nice !== undefined) {
  try { require("node:os").setPriority(0, workerData.nice); } catch {}
}
const snarkjs = require(workerData.snarkjsPath);
const { wasm, zkey } = workerData;
function refusal(error) {
  const message = error && typeof error.message === "string" ? error.message : "";
  if (!message.includes("Assert Failed")) return undefined;
  const at = /Error in template ([A-Za-z0-9]+?)(?:_[0-9]+)? line: ([0-9]+)/.exec(message);
  return { constraint: at ? at[1] + " line " + at[2] : null };
}
async function witness(input) {
  const wtns = { type: "mem" };
  await snarkjs.wtns.calculate(input, wasm, wtns);
  return wtns;
}
async function main() {
  try {
    const values = await snarkjs.wtns.exportJson(await witness(workerData.selfTest));
    parentPort.postMessage({ loaded: { witnessSize: values.length } });
  } catch (error) {
    const refused = refusal(error);
    parentPort.postMessage({ loadFailed: refused ? { refused: refused.constraint } : { failed: true } });
    return;
  }
  parentPort.on("message", async (job) => {
    let wtns;
    try {
      wtns = await witness(job.input);
    } catch (error) {
      const refused = refusal(error);
      parentPort.postMessage(refused ? { id: job.id, rejected: refused.constraint } : { id: job.id, failed: "witness" });
      return;
    }
    try {
      const { proof, publicSignals } = await snarkjs.groth16.prove(zkey, wtns, undefined, { singleThread: true });
      parentPort.postMessage({ id: job.id, proof, publicSignals });
    } catch {
      parentPort.postMessage({ id: job.id, failed: "proof" });
    }
  });
}
main().catch(() => process.exit(70));
`;

const loadedSchema = z.object({ loaded: z.object({ witnessSize: z.int().positive() }) });
const loadFailedSchema = z.object({
  loadFailed: z.union([z.object({ refused: z.string().nullable() }), z.object({ failed: z.literal(true) })]),
});
const answerSchema = z.union([
  z.object({ id: z.int(), proof: z.unknown(), publicSignals: z.unknown() }),
  z.object({ id: z.int(), rejected: z.string().nullable() }),
  z.object({ id: z.int(), failed: z.enum(["witness", "proof"]) }),
]);

/** What a thread answers for one job: snarkjs's proof, the circuit's refusal, or the step that threw. */
export type ThreadAnswer =
  | { kind: "proof"; proof: unknown; publicSignals: unknown }
  | { kind: "rejected"; constraint: string | undefined }
  | { kind: "failed"; stage: "witness" | "proof" };

/** How the self-test went: the witness size, or why the witness calculator does not prove the statement. */
export type ThreadLoad = { ok: true; witnessSize: number } | { ok: false; refused: boolean; constraint: string | undefined };

/** The thread stopped (terminated, crashed, or sent something unreadable) before it answered. */
export type ThreadStop = { stopped: true; exitCode: number | undefined };

let snarkjsPath: string | undefined;

/** The CommonJS entry of the snarkjs this package depends on, so the thread runs the same version. */
function resolveSnarkjs(): string {
  snarkjsPath ??= createRequire(import.meta.url).resolve("snarkjs");
  return snarkjsPath;
}

/** What a thread is started with. */
export type SnarkjsProverThreadParameters = {
  /** The witness calculator, in shared memory. */
  wasm: Uint8Array;
  /** The Groth16 proving key, in shared memory. */
  zkey: Uint8Array;
  /** The self-test statement's circuit input. */
  selfTest: SingleTeleportCircuitInput;
};

/**
 * A prover thread: `load` resolves once the self-test ran, `prove` runs one job. Jobs are meant one at a time
 * (the adapter hands a thread one job and takes it back when it is answered).
 *
 * @example
 * const thread = new SnarkjsProverThread({ wasm, zkey, selfTest });
 * if ((await thread.load).ok) console.log(await thread.prove(input));
 */
export class SnarkjsProverThread {
  /** The self-test's outcome; a thread that stops first resolves `{ ok: false, refused: false }`. */
  readonly load: Promise<ThreadLoad>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (answer: ThreadAnswer | ThreadStop) => void }>();
  #nextId = 0;
  #stop: ThreadStop | undefined;
  #onLoad: ((load: ThreadLoad) => void) | undefined;

  constructor(parameters: SnarkjsProverThreadParameters) {
    this.load = new Promise((resolve) => {
      this.#onLoad = resolve;
    });
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        snarkjsPath: resolveSnarkjs(),
        wasm: parameters.wasm,
        zkey: parameters.zkey,
        selfTest: parameters.selfTest,
        nice: process.platform === "linux" ? PROVER_THREAD_NICE : undefined,
      },
    });
    // An idle thread must not keep the process alive; whoever waits for a proof holds its own timer.
    this.#worker.unref();
    this.#worker.on("message", (message: unknown) => this.#receive(message));
    this.#worker.on("error", () => this.#stopped(undefined));
    this.#worker.on("exit", (code) => this.#stopped(code));
  }

  /** Whether the thread still runs and takes jobs. */
  get alive(): boolean {
    return this.#stop === undefined;
  }

  /** Runs one job; resolves with the answer, or with {@link ThreadStop} when the thread stops first. */
  prove(input: SingleTeleportCircuitInput): Promise<ThreadAnswer | ThreadStop> {
    if (this.#stop !== undefined) return Promise.resolve(this.#stop);
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, { resolve });
      this.#worker.postMessage({ id, input });
    });
  }

  /** Stops the thread (a proof in progress is abandoned); its jobs resolve with {@link ThreadStop}. */
  async terminate(): Promise<void> {
    this.#stopped(undefined);
    await this.#worker.terminate();
  }

  #receive(message: unknown): void {
    const loaded = loadedSchema.safeParse(message);
    if (loaded.success) {
      this.#loaded({ ok: true, witnessSize: loaded.data.loaded.witnessSize });
      return;
    }
    const failed = loadFailedSchema.safeParse(message);
    if (failed.success) {
      const outcome = failed.data.loadFailed;
      this.#loaded(
        "refused" in outcome ? { ok: false, refused: true, constraint: outcome.refused ?? undefined } : { ok: false, refused: false, constraint: undefined },
      );
      void this.terminate();
      return;
    }
    const answer = answerSchema.safeParse(message);
    if (!answer.success) {
      void this.terminate();
      return;
    }
    const pending = this.#pending.get(answer.data.id);
    this.#pending.delete(answer.data.id);
    const data = answer.data;
    pending?.resolve(
      "rejected" in data
        ? { kind: "rejected", constraint: data.rejected ?? undefined }
        : "failed" in data
          ? { kind: "failed", stage: data.failed }
          : { kind: "proof", proof: data.proof, publicSignals: data.publicSignals },
    );
  }

  #loaded(load: ThreadLoad): void {
    this.#onLoad?.(load);
    this.#onLoad = undefined;
  }

  #stopped(exitCode: number | undefined): void {
    this.#stop ??= { stopped: true, exitCode };
    this.#loaded({ ok: false, refused: false, constraint: undefined });
    for (const pending of this.#pending.values()) pending.resolve(this.#stop);
    this.#pending.clear();
  }
}
