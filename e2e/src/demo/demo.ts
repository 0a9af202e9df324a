#!/usr/bin/env node
/**
 * `make demo`: a newcomer's first minute. Starts the local stack, the facilitator and the demo provider as
 * real processes, pays `GET /weather` once with the headless agent, prints the resource and the burn
 * transaction, waits for the proof-gated mint that finalizes the payment, prints it and what a chain observer
 * gets under the local policy, and stops everything.
 */
import type { Hash } from "viem";
import { lastJson, runAgent } from "../harness/runAgent.js";
import { describeObserverView } from "./describeObserverView.js";
import { startDemoServices, type DemoServices } from "./startDemoServices.js";

/** A demo step did not do what it should. */
class DemoError extends Error {
  override name = "DemoError";
}

const say = (line: string) => process.stdout.write(`${line}\n`);
let services: DemoServices | undefined;
process.once("SIGINT", () => void (services?.stop() ?? Promise.resolve()).then(() => process.exit(130)));

try {
  services = await startDemoServices(say);
  const { facilitator, provider, stack, agentEnv } = services;
  say(`paying ${provider.url}/weather with the headless agent (permit mode: the payer only signs)...`);
  const paid = await runAgent(["pay", `${provider.url}/weather`, "--json"], agentEnv);
  if (paid.code !== 0) throw new DemoError(`the agent did not pay (exit ${paid.code}): ${paid.stdout}${paid.stderr}`);
  const result = lastJson(paid.stdout);
  const resource = result.resource as { body?: unknown } | undefined;
  say(`  resource: ${typeof resource?.body === "string" ? resource.body : JSON.stringify(resource)}`);
  say(`  burn transaction (payment accepted): ${String(result.transaction)}`);
  say("waiting for the finalize loop's proof-gated mint to the treasury...");
  const mint = await waitForMint(facilitator.url, stack.facilitatorEnv.SVC_ADMIN_TOKEN ?? "", String(result.transaction));
  say(`  mint transaction (payment finalized): ${mint}`);
  for (const line of await describeObserverView(stack, String(result.transaction) as Hash, mint as Hash)) say(line);
  say("done: one paid request, accepted on-chain and finalized. Stopping everything.");
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await services?.stop();
}

async function waitForMint(facilitatorUrl: string, adminToken: string, burnTxHash: string): Promise<string> {
  const giveUpAt = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${facilitatorUrl}/admin/settlements?state=finalized`, { headers: { authorization: `Bearer ${adminToken}` } });
    const { settlements } = (await response.json()) as { settlements: { burnTxHash: string; mintTxHash?: string }[] };
    const entry = settlements.find((candidate) => candidate.burnTxHash === burnTxHash);
    if (entry?.mintTxHash) return entry.mintTxHash;
    if (Date.now() > giveUpAt) throw new DemoError("the payment was not finalized within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
