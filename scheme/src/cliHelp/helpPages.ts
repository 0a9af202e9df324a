/**
 * Help pages rendered once at build time, so `--help` answers without loading the command-line parser and
 * every command's definition (most of a CLI's start-up, three times `node -e 0` on a small machine). Each
 * page is clipanion's own output, captured by running the real command line; a page is served only while
 * the built command modules it was rendered from are unchanged, otherwise the CLI renders help as usual.
 * Shared by both CLIs, and light on purpose: it loads nothing but Node's `fs`, `path` and `stream`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";

/** The file both CLIs keep their pages in, beside their built `cli.js` (`distDir`). */
const HELP_PAGES_FILE = "helpPages.json";
/** Where each CLI's command modules are built, under `distDir`. */
const COMMANDS_DIR = "commands";

/** What the pages file holds: the pages by request, and the fingerprint of the modules they came from. */
type HelpPagesFile = { fingerprint: string; pages: Record<string, string> };

/** The key of a pure help request (`--help` or `-h` after command words only), else undefined. */
export function helpRequestKey(argv: readonly string[]): string | undefined {
  const last = argv.at(-1);
  if (last !== "--help" && last !== "-h") return undefined;
  const words = argv.slice(0, -1);
  return words.every((word) => /^[a-z][a-z-]*$/.test(word)) ? argv.join(" ") : undefined;
}

/** The newest modification time and the count of the `.js` files under `commandsDir`: any rebuild that changes a command moves it. */
function fingerprintOf(commandsDir: string): string {
  let newest = 0;
  let count = 0;
  for (const entry of readdirSync(commandsDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".js")) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    count++;
  }
  return `${count}:${newest}`;
}

/**
 * The rendered page for `argv`, or undefined when `argv` is not a pure help request, the pages were never
 * rendered, or a command module under `distDir` changed since (then the CLI renders help itself).
 *
 * @example
 * const page = readHelpPage({ distDir: fileURLToPath(new URL(".", import.meta.url)), argv: process.argv.slice(2) });
 * if (page !== undefined) process.stdout.write(page);
 */
export function readHelpPage(parameters: { distDir: string; argv: readonly string[] }): string | undefined {
  const key = helpRequestKey(parameters.argv);
  if (key === undefined) return undefined;
  let file: HelpPagesFile;
  try {
    file = JSON.parse(readFileSync(join(parameters.distDir, HELP_PAGES_FILE), "utf8")) as HelpPagesFile;
  } catch {
    return undefined;
  }
  const page = file.pages?.[key];
  if (typeof page !== "string") return undefined;
  return file.fingerprint === fingerprintOf(join(parameters.distDir, COMMANDS_DIR)) ? page : undefined;
}

/**
 * Answers `argv` from its rendered help page when there is one (writing it to `stdout`, resolving 0), else
 * runs `commandLine`, which loads the parser and the commands only then.
 *
 * @example
 * process.exitCode = await helpPageOr({ distDir, argv, stdout: process.stdout, commandLine: () => loadAndRun(argv) });
 */
export async function helpPageOr(parameters: {
  distDir: string;
  argv: readonly string[];
  stdout: Writable;
  commandLine: () => Promise<number>;
}): Promise<number> {
  const page = readHelpPage(parameters);
  if (page === undefined) return parameters.commandLine();
  parameters.stdout.write(page);
  return 0;
}

/** The streams and environment a clipanion command line runs with (its `BaseContext`, structurally). */
type CliContext = { stdin: Readable; stdout: Writable; stderr: Writable; env: Record<string, string | undefined>; colorDepth: number };

/** Runs `runCli(argv)` with both output streams captured. */
async function captureRun(runCli: (argv: readonly string[], context: CliContext) => Promise<number>, argv: string[]) {
  const captured = { stdout: "", stderr: "" };
  const sink = (name: "stdout" | "stderr") =>
    new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        captured[name] += chunk.toString();
        callback();
      },
    });
  const code = await runCli(argv, { stdin: Readable.from([]), stdout: sink("stdout"), stderr: sink("stderr"), env: {}, colorDepth: 1 });
  return { code, ...captured };
}

/**
 * Renders the help of the bare CLI and of every command `definitions` lists (each with `--help` and `-h`) by
 * running the real command line, and writes the pages that exited 0 with nothing on stderr to `distDir`.
 * Resolves with the number of pages written. Run after every build (`make build`).
 *
 * @example
 * await writeHelpPages({ distDir, definitions: () => createCli().definitions(), runCli });
 */
export async function writeHelpPages(parameters: {
  distDir: string;
  /** clipanion's `cli.definitions()`: each `path` is the binary name followed by the command words. */
  definitions: () => readonly { path: string }[];
  runCli: (argv: readonly string[], context: CliContext) => Promise<number>;
}): Promise<number> {
  const commandPaths = parameters.definitions().map((definition) => definition.path.split(" ").slice(1));
  const pages: Record<string, string> = {};
  for (const path of [[], ...commandPaths]) {
    for (const flag of ["--help", "-h"]) {
      const argv = [...path, flag];
      const key = helpRequestKey(argv);
      const answer = await captureRun(parameters.runCli, argv);
      if (key !== undefined && answer.code === 0 && answer.stderr === "") pages[key] = answer.stdout;
    }
  }
  const file: HelpPagesFile = { fingerprint: fingerprintOf(join(parameters.distDir, COMMANDS_DIR)), pages };
  writeFileSync(join(parameters.distDir, HELP_PAGES_FILE), `${JSON.stringify(file)}\n`);
  return Object.keys(pages).length;
}
