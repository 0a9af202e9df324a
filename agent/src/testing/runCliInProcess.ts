import { PassThrough } from "node:stream";

import { runCli } from "../commands/runCli.js";

/** What a command line run produced. */
export type CliRun = { code: number; stdout: string; stderr: string };

/** Runs the agent's command line in this process with `env` as its whole environment. */
export async function runCliInProcess(argv: readonly string[], env: Record<string, string | undefined>): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk));
  stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const code = await runCli(argv, { env, stdin: new PassThrough(), stdout, stderr, colorDepth: 1 });
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}
