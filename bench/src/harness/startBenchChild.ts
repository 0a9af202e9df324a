/** Starts one of the bench's own child programs (`bench/dist/servers/*.js`) and waits for its `listening` line. */
import { startProcess, type RunningProcess } from "@svc/anvil-fixtures";
import { BenchError } from "./benchError.js";
import { benchProgram } from "./repoPaths.js";

/** A running bench child with its base URL and pid. */
export type BenchChild = RunningProcess & { url: string; pid: number };

/** Runs `node bench/dist/servers/<program>.js` with `env` (plus PATH). */
export async function startBenchChild(program: Parameters<typeof benchProgram>[0], env: Record<string, string>): Promise<BenchChild> {
  let url = "";
  const running = await startProcess({
    command: process.execPath,
    args: [benchProgram(program)],
    env: { PATH: process.env.PATH, ...env },
    ready: (line) => {
      if (!line.includes('"event":"listening"')) return false;
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed === "object" && parsed !== null && "url" in parsed && typeof parsed.url === "string") url = parsed.url;
      return true;
    },
  });
  const pid = running.child.pid;
  if (pid === undefined || url === "") {
    await running.stop();
    throw new BenchError(`${program} did not report its pid and url`);
  }
  return { ...running, url, pid };
}
