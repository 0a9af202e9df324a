/**
 * What a standalone section runner (`runPrivacy.js`, `runSharedInstances.js`) shares with `make bench`'s
 * start: a scratch folder, the local stack, the official payer process, and a stop list unwound in reverse
 * on success, failure or Ctrl-C. The section itself gets the running parts and prints its own report.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStack, type RunningStack } from "@svc/anvil-fixtures";
import { startPayer, type Payer } from "./startPayer.js";

/** The parts a section runs on. */
export type SectionParts = {
  dir: string;
  stack: RunningStack;
  payer: Payer;
  progress: (message: string) => void;
};

/** Runs `section` on a fresh stack and payer, labelling progress lines `[bench <label> N s]`; exits 1 on failure. */
export function runSection(label: string, section: (parts: SectionParts) => Promise<void>): void {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) / 1000);
  const progress = (message: string) => process.stderr.write(`[bench ${label} ${elapsed()} s] ${message}\n`);
  const main = async () => {
    const dir = await mkdtemp(join(tmpdir(), `svc-bench-${label}-`));
    const stoppers: (() => Promise<unknown>)[] = [async () => rm(dir, { recursive: true, force: true })];
    const stopAll = async () => {
      while (stoppers.length > 0)
        await stoppers
          .pop()?.()
          .catch(() => undefined);
    };
    process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
    try {
      progress("starting the local stack");
      const stack = await startStack({ dir, facilitatorPort: 0, rootIntervalMs: 0 });
      stoppers.push(stack.stop);
      const payer = await startPayer({
        rpcUrl: stack.deployment.rpcUrl,
        chainId: stack.deployment.chainId,
        oursAsset: stack.deployment.token,
        exactAsset: stack.deployment.usdc3009,
        maxAmount: "1000000000000000000",
      });
      stoppers.push(payer.stop);
      await section({ dir, stack, payer, progress });
      progress(`done in ${elapsed()} s`);
    } finally {
      await stopAll();
    }
  };
  main().catch((error: unknown) => {
    process.stderr.write(`bench ${label} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
    process.exit(1);
  });
}
