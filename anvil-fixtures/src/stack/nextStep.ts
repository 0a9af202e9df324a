/**
 * What `make stack` tells the user to run once the stack is up: the facilitator on the files the stack wrote.
 * The facilitator reads its secrets only from the environment, so the env file is sourced first; paths are given
 * from the folder `make stack` ran in, as the user will type them there.
 */
import { isAbsolute, relative, sep } from "node:path";

/** Where the pieces of the next command are. */
export type NextStepInput = {
  /** The folder the user runs the commands from. */
  cwd: string;
  /** The built facilitator command line, `facilitator/dist/cli.js`. */
  facilitatorCli: string;
  facilitatorToml: string;
  facilitatorEnv: string;
  /** The port `facilitator.toml` listens on; 0 lets the facilitator pick one. */
  facilitatorPort: number;
};

/** The lines that say how to start the facilitator against the stack. */
export function renderNextStep(input: NextStepInput): string[] {
  const path = (file: string) => shellWord(fromCwd(input.cwd, file));
  const where = input.facilitatorPort === 0 ? "" : ` (it listens on http://127.0.0.1:${input.facilitatorPort})`;
  return [
    `next: start the facilitator against this stack in another terminal, from ${shellWord(input.cwd)}${where}:`,
    `  set -a; . ${path(input.facilitatorEnv)}; set +a`,
    `  node ${path(input.facilitatorCli)} start --config ${path(input.facilitatorToml)}`,
  ];
}

/**
 * `file` relative to `cwd` when it lies inside it, else as given. A bare name gets `./`: `. name` would search
 * PATH instead of the folder.
 */
function fromCwd(cwd: string, file: string): string {
  const inside = relative(cwd, file);
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return file;
  return inside.includes(sep) ? inside : `.${sep}${inside}`;
}

/** `word` as one shell word: bare when it has no character the shell would read, else single-quoted. */
function shellWord(word: string): string {
  if (/^[\w./@%+=:,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
