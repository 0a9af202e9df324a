/**
 * Starts the anvil binary shipped by npm `@foundry-rs/anvil-linux-amd64` on loopback, on a port the OS
 * picks, and resolves once it answers JSON-RPC. Every started node is killed when the process exits, so an
 * aborted test run leaves no orphan chains behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { ANVIL_MNEMONIC } from "../accounts/devAccounts.js";
import { AnvilBinaryNotFoundError, AnvilPortInUseError, AnvilStartError } from "./errors.js";

/** Chain id of the local stack. */
export const ANVIL_CHAIN_ID = 31337;

/** Options of {@link startAnvil}. */
export type StartAnvilParameters = {
  /** Seconds between blocks (interval mining). Unset: a block per transaction (automine). */
  blockTime?: number;
  /** false: no automatic blocks at all; mine on demand with `evm_mine`. Ignored when `blockTime` is set. */
  automine?: boolean;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Chain id to run; defaults to {@link ANVIL_CHAIN_ID}. */
  chainId?: number;
  /** How long to wait for anvil to answer before giving up; defaults to 20 s. */
  startTimeoutMs?: number;
};

/** A running anvil node. */
export type StartAnvilReturnType = {
  /** HTTP JSON-RPC endpoint, e.g. `http://127.0.0.1:40123`. */
  rpcUrl: string;
  /** The port anvil listens on. */
  port: number;
  /** Process id of the anvil process. */
  pid: number;
  /** Kills anvil and resolves once it has exited; safe to call more than once. */
  stop: () => Promise<void>;
};

const OUTPUT_TAIL_LINES = 40;
const STOP_GRACE_MS = 3_000;
const LISTENING_PATTERN = /Listening on ([0-9.]+):(\d+)/;
/** What anvil prints (`Error: Address already in use (os error 98)`) when its port is taken. */
const ADDRESS_IN_USE_PATTERN = /Address already in use/i;

/**
 * Starts anvil on 127.0.0.1 with the default mnemonic and a free port, and waits until `eth_chainId` answers.
 * @example
 * const anvil = await startAnvil();
 * try { ... createPublicClient({ transport: http(anvil.rpcUrl) }) ... } finally { await anvil.stop(); }
 */
export async function startAnvil(parameters: StartAnvilParameters = {}): Promise<StartAnvilReturnType> {
  const chainId = parameters.chainId ?? ANVIL_CHAIN_ID;
  const startTimeoutMs = parameters.startTimeoutMs ?? 20_000;
  const args = [
    "--host",
    "127.0.0.1",
    // Port 0 lets the OS pick a free port atomically; anvil prints the one it got.
    "--port",
    String(parameters.port ?? 0),
    "--chain-id",
    String(chainId),
    "--mnemonic",
    ANVIL_MNEMONIC,
  ];
  if (parameters.blockTime !== undefined) args.push("--block-time", String(parameters.blockTime));
  else if (parameters.automine === false) args.push("--no-mining");

  const child = spawn(anvilBinaryPath(), args, { stdio: ["ignore", "pipe", "pipe"] });
  trackChild(child);
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopChild(child, exited);
    return stopping;
  };

  try {
    const port = await waitForListeningPort(child, output, startTimeoutMs, parameters.port ?? 0);
    const rpcUrl = `http://127.0.0.1:${port}`;
    await waitForChainId(rpcUrl, chainId, output, startTimeoutMs);
    if (child.pid === undefined) throw new AnvilStartError("the process has no pid", output);
    return { rpcUrl, port, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Path of the anvil executable, resolved through the npm package so it works from any working directory. */
export function anvilBinaryPath(): string {
  try {
    const require = createRequire(import.meta.url);
    const manifestPath = require.resolve("@foundry-rs/anvil-linux-amd64/package.json");
    const manifest = z.object({ bin: z.object({ anvil: z.string() }) }).parse(JSON.parse(readFileSync(manifestPath, "utf8")));
    return join(dirname(manifestPath), manifest.bin.anvil);
  } catch (error) {
    throw new AnvilBinaryNotFoundError(error);
  }
}

function waitForListeningPort(child: ChildProcess, output: string[], timeoutMs: number, requestedPort: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
    };
    const timer = setTimeout(() => settle(() => reject(new AnvilStartError(`no "Listening on" line within ${timeoutMs} ms`, output))), timeoutMs);
    const onLine = (line: string): void => {
      output.push(line);
      if (output.length > OUTPUT_TAIL_LINES) output.shift();
      const match = LISTENING_PATTERN.exec(line);
      if (match?.[2] !== undefined) {
        const port = Number(match[2]);
        settle(() => resolve(port));
      }
    };
    // Both streams are drained for the node's whole life: anvil logs every RPC call, and a full pipe would
    // block it.
    collectLines(child.stdout, onLine);
    collectLines(child.stderr, onLine);
    child.once("error", (error) => settle(() => reject(new AnvilStartError("spawn failed", output, error))));
    // "close", not "exit": only once both streams ended does `output` hold anvil's last words, which say why.
    child.once("close", (code, signal) =>
      settle(() =>
        reject(
          requestedPort !== 0 && output.some((line) => ADDRESS_IN_USE_PATTERN.test(line))
            ? new AnvilPortInUseError(requestedPort, output)
            : new AnvilStartError(`exited early (code ${code}, signal ${signal})`, output),
        ),
      ),
    );
  });
}

function collectLines(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void {
  if (stream === null) return;
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  });
}

const rpcResponseSchema = z.object({ result: z.string() });

async function waitForChainId(rpcUrl: string, chainId: number, output: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      const body = rpcResponseSchema.parse(await response.json());
      const answered = Number(BigInt(body.result));
      if (answered !== chainId) throw new AnvilStartError(`eth_chainId answered ${answered}, expected ${chainId}`, output);
      return;
    } catch (error) {
      if (error instanceof AnvilStartError) throw error;
      lastError = error;
      await sleep(25);
    }
  }
  throw new AnvilStartError(`eth_chainId did not answer within ${timeoutMs} ms`, output, lastError);
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    const killed = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
    if (!killed) {
      child.kill("SIGKILL");
      await exited;
    }
  }
  liveChildren.delete(child);
}

/** Every anvil this process started and has not stopped yet. */
const liveChildren = new Set<ChildProcess>();
let cleanupInstalled = false;

function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  // 'exit' handlers must be synchronous; kill() only sends the signal, which is all we need.
  process.once("exit", killLiveChildren);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killLiveChildren();
      // Our listener replaced the default "terminate"; restore it when nobody else handles the signal.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

function killLiveChildren(): void {
  for (const child of liveChildren) child.kill("SIGKILL");
  liveChildren.clear();
}
