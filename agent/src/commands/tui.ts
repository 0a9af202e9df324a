import { loadHistoryConfig } from "../history/loadHistoryConfig.js";
import { loadPolicy } from "../policy/loadPolicy.js";
import { BINARY_NAME } from "./binaryName.js";
import { UsageError } from "./clipanion.js";
import { parseUrlArgument } from "./parseUrlArgument.js";
import type { TuiCommand } from "./tuiCommand.js";

/** Runs `TuiCommand` as parsed into `command`; returns the exit code. `beforeFirstRender` runs just before Ink draws. */
export async function runTuiCommand(command: TuiCommand, hooks: { beforeFirstRender: () => void }): Promise<number> {
  const { stdin, stdout, env } = command.context;
  const url = command.url === undefined ? undefined : parseUrlArgument(command.url);
  const policy = loadPolicy(env);
  const history = loadHistoryConfig(env);
  if (Reflect.get(stdin, "isTTY") !== true) throw new UsageError(`tui needs an interactive terminal; scripts use \`${BINARY_NAME} pay --json\``);
  // Loaded here, not at the top: Ink and React take a noticeable share of start-up, and only `tui` needs them.
  const { runTui } = await import("../ui/runTui.js");
  // https://no-color.org: any non-empty value turns colours off.
  const colors = (env.NO_COLOR ?? "") === "";
  hooks.beforeFirstRender();
  return runTui({ policy, url, binaryName: BINARY_NAME, stdin, stdout, history, colors });
}
