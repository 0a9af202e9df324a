#!/usr/bin/env node
/**
 * Entry point of `agent/dist/cli.js` (`svc-agent`): quote, pay, resend, ledger, approvals, history, proof and tui. Exit codes
 * are listed in `commands/exitCodes.ts` and the README. Everything lives in `commands/` so tests can run the
 * command line without starting a process.
 */
import { fileURLToPath } from "node:url";

import { helpPageOr } from "@svc/scheme/cli-help";

// A reader that goes away early (`ledger | head`) is not an error of ours.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const argv = process.argv.slice(2);
// A help page rendered at build time when there is one (clipanion and the commands stay unloaded), else the command line.
const code = await helpPageOr({
  distDir: fileURLToPath(new URL(".", import.meta.url)),
  argv,
  stdout: process.stdout,
  commandLine: async () => {
    const [{ Cli }, { runCli }] = await Promise.all([import("./commands/clipanion.js"), import("./commands/runCli.js")]);
    return runCli(argv, Cli.defaultContext);
  },
});
// Exit explicitly so a keep-alive socket or a stray timer cannot hold the process after the answer; both
// streams are flushed first because pipes are asynchronous.
await Promise.all([flush(process.stdout), flush(process.stderr)]);
process.exit(code);

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write("", () => resolve());
  });
}
