/**
 * The command prover adapter: runs the configured program once per proof, without a shell, writes the
 * witness JSON (`proverWitness.ts`) and a newline to its stdin, and reads one `0x` hex proof from its stdout
 * (surrounding whitespace ignored). Exit 0 with that proof is success; exit 65 says the circuit refuses the
 * witness (`prover_witness_rejected`); any other exit is `prover_failed`.
 *
 * The program gets a small environment (`PATH`, `HOME`, `TMPDIR`, `LANG`, `LC_ALL`, `TZ`; on Windows also
 * `SYSTEMROOT`), never the daemon's own: that holds the treasury and relayer keys. It runs in a process group
 * of its own, so a timeout or `close()` kills whatever it started too. Its stderr is read and counted, never
 * kept: it may echo the witness, which carries the burn secret.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { Hex } from "viem";
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
  WITNESS_REJECTED_EXIT_CODE,
} from "./errors.js";
import type { ProverAdapter, ProverLimits } from "./proverAdapter.js";
import { encodeProverWitness, type ProverCircuit } from "./proverWitness.js";

/** The most a program may print on stdout; a proof in hex is about 2 KiB. */
export const MAX_COMMAND_OUTPUT_BYTES = 64 * 1024;

/** The variables a prover program inherits from the daemon's environment; nothing else is passed. */
export const INHERITED_ENV_VARIABLES = ["PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "TZ", "SYSTEMROOT"] as const;

/** The program to run and its limits. */
export type CreateCommandProverParameters = ProverLimits & {
  /** The program and its arguments (`prover.command`); run without a shell. */
  command: readonly [string, ...string[]];
  /** The chain of the token and verifier (`network.chain_id`), written into the witness. */
  chainId: number;
  /** Where the inherited variables are read from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
};

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * Creates the command prover adapter.
 *
 * @example
 * const prover = createCommandProver({ command: ["/opt/zerc20/prove"], chainId: 8453, timeoutMs: 120_000, concurrency: 1 });
 * const proof = await prover.proveSingle(inputs);
 */
export function createCommandProver(parameters: CreateCommandProverParameters): ProverAdapter {
  const [program, ...args] = parameters.command;
  const source = parameters.env ?? process.env;
  const env = Object.fromEntries(INHERITED_ENV_VARIABLES.flatMap((name) => (source[name] === undefined ? [] : [[name, source[name]]])));
  const slots = createSemaphore(parameters.concurrency);
  // Every program started and not yet exited: `close()` stops them and waits for their exit.
  const running = new Set<{ stop: () => void; exited: Promise<void> }>();
  let closed = false;

  const run = (context: ProverErrorContext, witness: string): Promise<string> =>
    new Promise((resolve, reject) => {
      let child: Child;
      try {
        // Its own process group (POSIX), so killing the group also stops whatever the program started.
        child = spawn(program, args, { stdio: ["pipe", "pipe", "pipe"], env, detached: process.platform !== "win32", windowsHide: true });
      } catch (cause) {
        reject(new ProverUnavailableError({ ...context, problem: "unreachable", code: errorCode(cause), cause }));
        return;
      }
      const stdout: Buffer[] = [];
      let stdoutBytes = 0;
      let stderrBytes = 0;
      let ending: "timeout" | "overflow" | "closed" | undefined;
      let settled = false;
      let hasExited = false;
      let markExited = () => {};
      const exited = new Promise<void>((done) => {
        markExited = () => {
          hasExited = true;
          done();
        };
      });
      const kill = () => {
        try {
          if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
          else child.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      };
      const settle = (outcome: { proof: string } | { error: Error }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        running.delete(handle);
        if ("proof" in outcome) resolve(outcome.proof);
        else reject(outcome.error);
      };
      // A stopped program is answered as soon as it is gone, even if something it started still holds its pipes.
      const answerStopped = () => {
        const error = endingError();
        if (!error || !hasExited) return;
        child.stdout.destroy();
        child.stderr.destroy();
        settle({ error });
      };
      const stopWith = (reason: NonNullable<typeof ending>) => {
        ending ??= reason;
        kill();
        answerStopped();
      };
      const handle = { stop: () => stopWith("closed"), exited };
      const timer = setTimeout(() => stopWith("timeout"), parameters.timeoutMs);
      const endingError = (): Error | undefined => {
        if (ending === "timeout") return new ProverTimeoutError({ ...context, timeoutMs: parameters.timeoutMs });
        if (ending === "closed") return new ProverUnavailableError({ ...context, problem: "closed" });
        if (ending === "overflow") return new ProverOutputInvalidError({ ...context, problem: `more than ${MAX_COMMAND_OUTPUT_BYTES} bytes on stdout` });
        return undefined;
      };

      child.on("error", (cause) => {
        // Only a failed spawn leaves no pid; a failed kill of a running program changes nothing here.
        if (child.pid !== undefined) return;
        markExited();
        settle({ error: new ProverUnavailableError({ ...context, problem: "unreachable", code: errorCode(cause), cause }) });
      });
      if (child.pid !== undefined) running.add(handle);
      // A killed program (or one that exits without reading) closes its stdin early: that is not a failure here.
      child.stdin.on("error", () => {});
      child.stdin.end(`${witness}\n`);
      child.stderr.on("data", (chunk: Buffer) => {
        stderrBytes += chunk.length;
      });
      child.stdout.on("data", (chunk: Buffer) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes > MAX_COMMAND_OUTPUT_BYTES) stopWith("overflow");
        else stdout.push(chunk);
      });
      child.on("exit", () => {
        markExited();
        answerStopped();
      });
      child.on("close", (code, signal) => {
        const error = endingError();
        if (error) return settle({ error });
        if (signal !== null) return settle({ error: new ProverFailedError({ ...context, outcome: { signal }, unshown: unshownBytes("stderr", stderrBytes) }) });
        if (code === WITNESS_REJECTED_EXIT_CODE) return settle({ error: new ProverWitnessRejectedError(context) });
        if (code !== 0)
          return settle({ error: new ProverFailedError({ ...context, outcome: { exitCode: code ?? -1 }, unshown: unshownBytes("stderr", stderrBytes) }) });
        settle({ proof: Buffer.concat(stdout).toString("utf8").trim() });
      });
      if (closed) stopWith("closed");
    });

  const prove = async (circuit: ProverCircuit, inputs: WithdrawProofInputs): Promise<Hex> => {
    const context: ProverErrorContext = { adapter: "command", circuit };
    const witness = JSON.stringify(encodeProverWitness({ inputs, circuit, chainId: parameters.chainId }));
    const release = await slots.acquire();
    if (release === undefined) throw new ProverUnavailableError({ ...context, problem: "closed" });
    try {
      const proof = await run(context, witness);
      return checkProverProof({ ...context, proof, inputs });
    } finally {
      release();
    }
  };

  return {
    proveSingle: (inputs) => prove("single", inputs),
    proveBatch: (inputs) => prove("batch", inputs),
    close: async () => {
      closed = true;
      slots.close();
      const stopping = [...running];
      for (const handle of stopping) handle.stop();
      await Promise.all(stopping.map((handle) => handle.exited));
    },
  };
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
