import type { Readable, Writable } from "node:stream";

import { render } from "ink";

import type { HistoryConfig } from "../history/loadHistoryConfig.js";
import type { Policy } from "../policy/policy.js";
import { App } from "./components/App.js";
import { createTuiDependencies } from "./tuiDependencies.js";

/** Inputs to `runTui`. */
export type RunTuiParameters = {
  policy: Policy;
  url: URL | undefined;
  binaryName: string;
  /** False with `NO_COLOR` set: the screen is not coloured. */
  colors?: boolean | undefined;
  /** Where the history view reads from; without a facilitator URL the view is off. */
  history?: HistoryConfig | undefined;
  stdin: Readable;
  stdout: Writable;
};

/**
 * Runs the Ink TUI until the user quits and resolves with its exit code (the last payment's, as `pay` would exit).
 * Keyboard only; Ctrl-C is handled by the screen itself (exit 130, withdrawing an undecided approval).
 */
export async function runTui(parameters: RunTuiParameters): Promise<number> {
  let code = 0;
  const instance = render(
    <App
      dependencies={createTuiDependencies(parameters.policy, parameters.history)}
      url={parameters.url}
      binaryName={parameters.binaryName}
      colors={parameters.colors}
      onExit={(exitCode) => {
        code = exitCode;
      }}
    />,
    // Ink reads process streams' TTY details from these; the CLI passes its own context streams.
    { stdin: parameters.stdin as NodeJS.ReadStream, stdout: parameters.stdout as NodeJS.WriteStream, exitOnCtrlC: false },
  );
  await instance.waitUntilExit();
  return code;
}
