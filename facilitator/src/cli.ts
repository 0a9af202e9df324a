#!/usr/bin/env node
/**
 * Entry point of `facilitator/dist/cli.js`: `check --config <path>` and `start --config <path>`. Exit codes:
 * 0 ok, 1 problems or startup failure, 2 usage mistakes. Everything else lives in `commands/` so tests can
 * run the command line without starting a process.
 */
import { fileURLToPath } from "node:url";

import { helpPageOr } from "@svc/scheme/cli-help";

// A reader that goes away early (`check ... | head`) is not an error of ours: stop quietly instead of
// crashing on EPIPE with a stack trace.
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
