#!/usr/bin/env node
/**
 * Entry point of `facilitator/dist/cli.js`: `check --config <path>` and `start --config <path>`. Exit codes:
 * 0 ok, 1 problems or startup failure, 2 usage mistakes. Everything else lives in `commands/` so tests can
 * run the command line without starting a process.
 */
import { Cli } from "./commands/clipanion.js";

import { runCli } from "./commands/runCli.js";

// A reader that goes away early (`check ... | head`) is not an error of ours: stop quietly instead of
// crashing on EPIPE with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

const code = await runCli(process.argv.slice(2), Cli.defaultContext);
// Exit explicitly: after `start` has stopped, a stray timer or socket left by a library must not keep the
// process alive past the shutdown the operator asked for. Pipes are asynchronous on some platforms, so both
// streams are flushed first.
await Promise.all([flush(process.stdout), flush(process.stderr)]);
process.exit(code);

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write("", () => resolve());
  });
}
