/**
 * The three services a demo needs, as real processes: the local stack, the facilitator and the demo
 * provider. `stop()` stops them in reverse order and removes the temporary folders.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFacilitatorProcess, startProviderProcess, type FacilitatorProcess, type ProviderProcess } from "@svc/anvil-fixtures";
import { startStackProcess, type StackProcess } from "../harness/startStackProcess.js";

/** Running demo services and the agent environment that pays through them. */
export type DemoServices = {
  stack: StackProcess;
  facilitator: FacilitatorProcess;
  provider: ProviderProcess;
  /** `SVC_*` variables for the agent: the funded dev payer, the local RPC, a fresh state folder, the facilitator's history. */
  agentEnv: Record<string, string>;
  stop: () => Promise<void>;
};

/** Starts everything, printing each step through `say`; on failure stops what had started. */
export async function startDemoServices(say: (line: string) => void): Promise<DemoServices> {
  const stoppers: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  try {
    say("starting the local zERC20 stack (anvil, contracts, indexer, decider)...");
    const stack = await startStackProcess();
    stoppers.push(stack.close);
    say(`  anvil ${stack.deployment.rpcUrl}, token ${stack.deployment.token}`);
    say("starting the facilitator (profile local)...");
    const facilitator = await startFacilitatorProcess({ configPath: stack.facilitatorToml, env: stack.facilitatorEnv });
    stoppers.push(() => facilitator.stop());
    say(`  ${facilitator.url}`);
    say("starting the demo provider...");
    const provider = await startProviderProcess({ facilitatorUrl: facilitator.url });
    stoppers.push(() => provider.stop());
    say(`  ${provider.url} (GET /weather costs 0.001 zFIX plus the 1% fee)`);
    const stateDir = await mkdtemp(join(tmpdir(), "demo-agent-"));
    stoppers.push(() => rm(stateDir, { recursive: true, force: true }));
    const agentEnv = {
      SVC_PAYER_PK: stack.deployment.accounts.payer.privateKey,
      SVC_RPC_URL: stack.deployment.rpcUrl,
      SVC_STATE_DIR: stateDir,
      // The stack records payment history: `svc-agent history` and the TUI's `h` read it from here.
      SVC_FACILITATOR_URL: facilitator.url,
    };
    return { stack, facilitator, provider, agentEnv, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
