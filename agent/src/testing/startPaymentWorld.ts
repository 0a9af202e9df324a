/**
 * The three parties as real processes for the agent's end-to-end tests: the local stack (anvil, contracts,
 * fixture indexer and decider, in this process), the built facilitator daemon and the built demo provider,
 * each a child process. The agent under test then runs as `node agent/dist/cli.js`. Tests never build;
 * `make test` builds first.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import {
  readEnvFile,
  type RunningProcess,
  type RunningStack,
  startFacilitatorProcess,
  startProcess,
  startStack,
  type FacilitatorProcess,
} from "@svc/anvil-fixtures";
import { zerc20TokenAbi } from "@svc/scheme";
import { createPublicClient, http, parseAbiItem, type Hex, type PublicClient } from "viem";
import { foundry } from "viem/chains";

/** The built demo provider. */
export const PROVIDER_SERVER = fileURLToPath(new URL("../../../provider-demo/dist/server.js", import.meta.url));

/** Options of `startPaymentWorld`. */
export type PaymentWorldOptions = {
  /** List price of `GET /weather` in base units (the facilitator adds its 1% payer-charged fee). */
  price?: string;
  /** Extra variables for the main facilitator (e.g. the `HISTORY_*` set), given the running stack. */
  facilitatorEnv?: ((stack: RunningStack) => Record<string, string>) | undefined;
};

/** A facilitator and provider pair started beside the main one. */
export type ExtraProvider = { weatherUrl: string; stop: () => Promise<void> };

/** The running parties and what tests need to talk to them. */
export type PaymentWorld = {
  dir: string;
  stack: RunningStack;
  facilitator: FacilitatorProcess;
  provider: RunningProcess & { url: string };
  /** `GET /weather` on the provider. */
  weatherUrl: string;
  chain: PublicClient;
  /** Payer keys funded with zERC20. */
  payerKey: Hex;
  payer2Key: Hex;
  /** Environment for the agent: RPC, network and a fresh state folder under `dir`. */
  agentEnv: (stateName: string, extra?: Record<string, string>) => Record<string, string>;
  /** `Transfer` events of the token to `to` since the deployment: one per burn to a burn address. */
  transfersTo: (to: Hex) => Promise<{ transactionHash: Hex; value: bigint }[]>;
  balanceOf: (owner: Hex) => Promise<bigint>;
  /**
   * Starts a second facilitator whose config lacks `settlement.permit_burner` (so its offers carry no
   * `extra.helper`), with its own provider, on the same stack; stopped by `close` too.
   */
  startProviderWithoutPermit: () => Promise<ExtraProvider>;
  close: () => Promise<void>;
};

/** Starts the built provider against `facilitatorUrl` and waits for its `listening` line. */
async function startProvider(facilitatorUrl: string, price: string): Promise<RunningProcess & { url: string }> {
  let url = "";
  const provider = await startProcess({
    command: process.execPath,
    args: [PROVIDER_SERVER],
    env: { PATH: process.env.PATH, FACILITATOR_URL: facilitatorUrl, PORT: "0", PRICE: price },
    ready: (line) => {
      if (!line.includes('"event":"listening"')) return false;
      url = (JSON.parse(line) as { url: string }).url;
      return true;
    },
  });
  return { ...provider, url };
}

/** Starts stack, facilitator and provider; stops whatever started when a later part fails. */
export async function startPaymentWorld(options: PaymentWorldOptions = {}): Promise<PaymentWorld> {
  if (!existsSync(PROVIDER_SERVER)) throw new Error(`${PROVIDER_SERVER} is missing: run \`make build\` before the tests`);
  const dir = await mkdtemp(join(tmpdir(), "svc-agent-world-"));
  const stoppers: (() => Promise<unknown>)[] = [async () => rm(dir, { recursive: true, force: true })];
  const close = async () => {
    while (stoppers.length > 0) await stoppers.pop()?.().catch(() => undefined);
  };
  try {
    const price = options.price ?? "1000";
    const stack = await startStack({ dir, facilitatorPort: 0 });
    stoppers.push(stack.stop);
    const facilitatorEnv = await readEnvFile(stack.files.facilitatorEnv);
    const facilitator = await startFacilitatorProcess({
      configPath: stack.files.facilitatorToml,
      env: { ...facilitatorEnv, ...options.facilitatorEnv?.(stack) },
    });
    stoppers.push(() => facilitator.stop());
    const provider = await startProvider(facilitator.url, price);
    stoppers.push(() => provider.stop());
    const chain = createPublicClient({ chain: foundry, transport: http(stack.deployment.rpcUrl) }) as PublicClient;
    const token = stack.deployment.token;
    return {
      dir,
      stack,
      facilitator,
      provider,
      weatherUrl: `${provider.url}/weather`,
      chain,
      payerKey: stack.deployment.accounts.payer.privateKey,
      payer2Key: stack.deployment.accounts.payer2.privateKey,
      agentEnv: (stateName, extra = {}) => ({
        PATH: process.env.PATH ?? "",
        SVC_RPC_URL: stack.deployment.rpcUrl,
        SVC_ALLOWED_NETWORK: `eip155:${stack.deployment.chainId}`,
        SVC_STATE_DIR: join(dir, stateName),
        ...extra,
      }),
      transfersTo: async (to) => {
        const logs = await chain.getLogs({
          address: token,
          event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
          args: { to },
          fromBlock: BigInt(stack.deployment.deployBlockNumber),
          toBlock: "latest",
        });
        return logs.map((log) => ({ transactionHash: log.transactionHash, value: log.args.value ?? 0n }));
      },
      balanceOf: (owner) => chain.readContract({ address: token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [owner] }),
      startProviderWithoutPermit: async () => {
        const toml = await readFile(stack.files.facilitatorToml, "utf8");
        const configPath = join(dir, "without-permit.toml");
        await writeFile(configPath, toml.replace(/^permit_burner = .*$/m, "").replace(/^journal = .*$/m, 'journal = "without-permit.journal.jsonl"'));
        const second = await startFacilitatorProcess({ configPath, env: facilitatorEnv });
        stoppers.push(() => second.stop());
        const secondProvider = await startProvider(second.url, price);
        stoppers.push(() => secondProvider.stop());
        return {
          weatherUrl: `${secondProvider.url}/weather`,
          stop: async () => {
            await secondProvider.stop();
            await second.stop();
          },
        };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
