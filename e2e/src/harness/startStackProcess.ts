/**
 * The local stack as a real child process (`anvil-fixtures/dist/bin/stack.js`, what `make stack` runs), on
 * free ports in its own folder; resolves once it printed its ready line and wrote `deployment.json`.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readEnvFile, startProcess, type RunningProcess, type StackDeployment } from "@svc/anvil-fixtures";
import { REPO_ROOT } from "./repoRoot.js";

/** A stack process with its files. */
export type StackProcess = RunningProcess & {
  dir: string;
  deployment: StackDeployment;
  facilitatorToml: string;
  facilitatorEnv: Record<string, string>;
  /** Stops the stack and removes its folder. */
  close: () => Promise<void>;
};

/** Starts the stack (`STACK_PROTOCOL`, default v2) with every port free (`0`) in a fresh temp folder. */
export async function startStackProcess(options: { protocol?: "v1" | "v2" } = {}): Promise<StackProcess> {
  const dir = await mkdtemp(join(tmpdir(), "e2e-stack-"));
  const running = await startProcess({
    command: process.execPath,
    args: [join(REPO_ROOT, "anvil-fixtures", "dist", "bin", "stack.js")],
    env: {
      PATH: process.env.PATH,
      STACK_DIR: dir,
      STACK_ANVIL_PORT: "0",
      STACK_INDEXER_PORT: "0",
      STACK_DECIDER_PORT: "0",
      STACK_FACILITATOR_PORT: "0",
      STACK_ROOT_INTERVAL_MS: "300",
      ...(options.protocol === undefined ? {} : { STACK_PROTOCOL: options.protocol }),
    },
    ready: (line) => line.startsWith("local zERC20 stack ready"),
    timeoutMs: 60_000,
  });
  const deployment = JSON.parse(await readFile(join(dir, "deployment.json"), "utf8")) as StackDeployment;
  return {
    ...running,
    dir,
    deployment,
    facilitatorToml: join(dir, "facilitator.toml"),
    facilitatorEnv: await readEnvFile(join(dir, "facilitator.env")),
    close: async () => {
      await running.stop("SIGTERM");
      await rm(dir, { recursive: true, force: true });
    },
  };
}
