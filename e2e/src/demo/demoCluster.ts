#!/usr/bin/env node
/**
 * `make demo-cluster`: two facilitator instances sharing one PostgreSQL database, behind a round-robin,
 * serving one demo provider. Starts the local stack and a PostgreSQL server, migrates the schema with
 * `svc-facilitator migrate`, starts both instances, pays `GET /weather` twice with the headless agent
 * (offers and settles alternate between the instances), waits for both mints and stops everything.
 */
import { execFile } from "node:child_process";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { FACILITATOR_CLI, startFacilitatorProcess, startProviderProcess, startRoundRobin } from "@svc/anvil-fixtures";
import { startPostgres } from "@svc/anvil-fixtures/postgres";
import { lastJson, runAgent } from "../harness/runAgent.js";
import { startStackProcess } from "../harness/startStackProcess.js";

/** A demo step did not do what it should. */
class DemoError extends Error {
  override name = "DemoError";
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const stoppers: (() => Promise<unknown>)[] = [];
const stopAll = async () => {
  while (stoppers.length > 0)
    await stoppers
      .pop()?.()
      .catch(() => undefined);
};
process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));

try {
  say("starting the local zERC20 stack and a PostgreSQL server...");
  const [stack, postgres] = await Promise.all([startStackProcess(), startPostgres()]);
  stoppers.push(stack.close, postgres.stop);
  const url = new URL(await postgres.createDatabase());
  // The password goes to the environment, the file names the server only.
  const env = { ...stack.facilitatorEnv, SVC_STORAGE_PASSWORD: decodeURIComponent(url.password) };
  url.password = "";
  const configPath = join(stack.dir, "facilitator-cluster.toml");
  await writeFile(configPath, (await readFile(stack.facilitatorToml, "utf8")).replace(/^port = .*$/m, "port = 0"));
  await appendFile(configPath, `\n[storage]\nurl = "${url.toString()}"\n`);
  say(`  anvil ${stack.deployment.rpcUrl}; database ${url.toString()}`);

  say("svc-facilitator migrate...");
  const migrated = await promisify(execFile)(process.execPath, [FACILITATOR_CLI, "migrate", "--config", configPath], {
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  say(`  ${migrated.stdout.trim()}`);

  say("starting two facilitator instances on that database...");
  const instances = await Promise.all([startFacilitatorProcess({ configPath, env }), startFacilitatorProcess({ configPath, env })]);
  for (const instance of instances) stoppers.push(() => instance.stop());
  const front = await startRoundRobin(() => instances.map((instance) => instance.url));
  stoppers.push(front.stop);
  say(`  ${instances.map((instance) => instance.url).join(" and ")}, round-robin at ${front.url}`);
  const provider = await startProviderProcess({ facilitatorUrl: front.url });
  stoppers.push(() => provider.stop());
  say(`  demo provider ${provider.url} in front of the round-robin`);

  // History is read from one instance: every instance serves the shared history, and a wallet login is one instance's exchange.
  const agentEnv = {
    SVC_PAYER_PK: stack.deployment.accounts.payer.privateKey,
    SVC_RPC_URL: stack.deployment.rpcUrl,
    SVC_STATE_DIR: join(stack.dir, "agent"),
    SVC_FACILITATOR_URL: instances[0]?.url ?? front.url,
  };
  const burns: string[] = [];
  const issuedCount = (lines: readonly string[]) => lines.filter((line) => line.includes('"event":"challenge_issued"')).length;
  for (const round of [1, 2]) {
    const issuedBefore = instances.map((instance) => issuedCount(instance.lines));
    const paid = await runAgent(["pay", `${provider.url}/weather`, "--json"], agentEnv);
    if (paid.code !== 0) throw new DemoError(`the agent did not pay (exit ${paid.code}): ${paid.stdout}${paid.stderr}`);
    const transaction = String(lastJson(paid.stdout).transaction);
    burns.push(transaction);
    const issuedBy = instances.findIndex((instance, index) => issuedCount(instance.lines) > (issuedBefore[index] ?? 0));
    const acceptedBy = instances.findIndex((instance) =>
      instance.lines.some((line) => line.includes('"event":"payment_accepted"') && line.includes(transaction)),
    );
    say(`  payment ${round}: offer from instance ${issuedBy + 1}, accepted by instance ${acceptedBy + 1}, burn ${transaction}`);
  }
  say("waiting for the proof-gated mints (either instance's finalize loop, one lease per payment)...");
  for (const burn of burns) say(`  mint ${await waitForMint(instances[0]!.url, stack.facilitatorEnv.SVC_ADMIN_TOKEN ?? "", burn)} for burn ${burn}`);
  say("done: two instances, one database, every payment accepted and finalized once. Stopping everything.");
} catch (error) {
  process.stderr.write(`demo-cluster failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
}

async function waitForMint(facilitatorUrl: string, adminToken: string, burnTxHash: string): Promise<string> {
  const giveUpAt = Date.now() + 90_000;
  for (;;) {
    const response = await fetch(`${facilitatorUrl}/admin/settlements?state=finalized`, { headers: { authorization: `Bearer ${adminToken}` } });
    const { settlements } = (await response.json()) as { settlements: { burnTxHash: string; mintTxHash?: string }[] };
    const entry = settlements.find((candidate) => candidate.burnTxHash === burnTxHash);
    if (entry?.mintTxHash) return entry.mintTxHash;
    if (Date.now() > giveUpAt) throw new DemoError("a payment was not finalized within 90 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
