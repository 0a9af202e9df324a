/**
 * The test kit's one world starter: the local stack (anvil, contracts, fixture indexer and decider, in this
 * process), the built facilitator as a child process and, unless left out, the built demo provider as a
 * child process in front of it. Suites in every package start "the three programs" through here; payers
 * (the agent CLI, the test payer) then pay `weatherUrl` for real. Tests never build: `make test` builds first.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ProtocolVersion, zerc20TokenAbiV1 } from "@svc/scheme";
import { createPublicClient, http, parseAbiItem, type Address, type Hex, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import { createTestPayer, type TestPayer } from "../payer/createTestPayer.js";
import { readEnvFile } from "../processes/readEnvFile.js";
import { startFacilitatorProcess, type FacilitatorProcess } from "../processes/startFacilitatorProcess.js";
import { startProviderProcess, type ProviderProcess } from "../processes/startProviderProcess.js";
import { startStack, type RunningStack } from "../stack/startStack.js";

/** Options of {@link startWorld}. */
export type StartWorldOptions = {
  /** Prefix of the world's temp folder (default `svc-world-`). */
  dirPrefix?: string;
  /** List price of `GET /weather` in base units (default 1000; the facilitator adds its 1% payer-charged fee). */
  price?: string;
  /** Extra variables for the facilitator (e.g. the `HISTORY_*` set), given the running stack. */
  facilitatorEnv?: ((stack: RunningStack) => Record<string, string>) | undefined;
  /** `false` starts no provider, for suites that run the provider themselves. */
  provider?: boolean;
  /** The zERC20 version of the stack (default `zerc20-v2`). */
  protocol?: ProtocolVersion;
};

/** A provider, and the facilitator behind it, started beside the world's own. */
export type ExtraProvider = { weatherUrl: string; stop: () => Promise<void> };

/** The stack and the facilitator process, with what tests need to talk to them. */
export type FacilitatorWorld = {
  /** The world's temp folder (stack files, journals, agent state); removed by `close`. */
  dir: string;
  stack: RunningStack;
  facilitator: FacilitatorProcess;
  /** The facilitator's secrets from `facilitator.env` (`SVC_ADMIN_TOKEN`, ...), for config variants. */
  facilitatorEnv: Record<string, string>;
  chain: PublicClient;
  /** The funded dev payers `payer` and `payer2` as keys and as test payers. */
  payerKey: Hex;
  payer2Key: Hex;
  payer: TestPayer;
  payer2: TestPayer;
  /** Environment for the agent CLI: PATH, RPC, network and a fresh state folder `<dir>/<stateName>`. */
  agentEnv: (stateName: string, extra?: Record<string, string>) => Record<string, string>;
  /** zERC20 balance of `owner`. */
  balanceOf: (owner: Address) => Promise<bigint>;
  /** `Transfer` events of the token to `to` since the deployment: one per burn to a burn address. */
  transfersTo: (to: Address) => Promise<{ transactionHash: Hex; value: bigint }[]>;
  /** Stops everything the world started, newest first, and removes its folder; safe to call twice. */
  close: () => Promise<void>;
};

/** The whole world: the facilitator world plus the demo provider in front of the facilitator. */
export type World = FacilitatorWorld & {
  provider: ProviderProcess;
  /** `GET /weather` on the provider. */
  weatherUrl: string;
  /**
   * Starts a second facilitator whose config lacks `settlement.permit_burner` (so its offers carry no
   * `extra.helper`), with its own provider, on the same stack; stopped by `close` too.
   */
  startProviderWithoutPermit: () => Promise<ExtraProvider>;
};

/**
 * Starts stack, facilitator and (unless `provider: false`) provider; stops whatever started when a later
 * part fails.
 *
 * @example
 * const world = await startWorld({ price: "1000" });
 * const response = await fetch(world.weatherUrl); // 402 with an svc-zerc20 offer
 */
export function startWorld(options: StartWorldOptions & { provider: false }): Promise<FacilitatorWorld>;
export function startWorld(options?: StartWorldOptions): Promise<World>;
export async function startWorld(options: StartWorldOptions = {}): Promise<World | FacilitatorWorld> {
  const dir = await mkdtemp(join(tmpdir(), options.dirPrefix ?? "svc-world-"));
  const stoppers: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
  const close = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  try {
    const price = options.price ?? "1000";
    const stack = await startStack({ dir, facilitatorPort: 0, protocol: options.protocol });
    stoppers.push(stack.stop);
    const facilitatorEnv = await readEnvFile(stack.files.facilitatorEnv);
    const facilitator = await startFacilitatorProcess({
      configPath: stack.files.facilitatorToml,
      env: { ...facilitatorEnv, ...options.facilitatorEnv?.(stack) },
    });
    stoppers.push(() => facilitator.stop());
    const { deployment } = stack;
    const chain = createPublicClient({ chain: foundry, transport: http(deployment.rpcUrl) }) as PublicClient;
    const world: FacilitatorWorld = {
      dir,
      stack,
      facilitator,
      facilitatorEnv,
      chain,
      payerKey: deployment.accounts.payer.privateKey,
      payer2Key: deployment.accounts.payer2.privateKey,
      payer: createTestPayer({ rpcUrl: deployment.rpcUrl, privateKey: deployment.accounts.payer.privateKey, protocol: deployment.protocol }),
      payer2: createTestPayer({ rpcUrl: deployment.rpcUrl, privateKey: deployment.accounts.payer2.privateKey, protocol: deployment.protocol }),
      agentEnv: (stateName, extra = {}) => ({
        PATH: process.env.PATH ?? "",
        SVC_RPC_URL: deployment.rpcUrl,
        SVC_ALLOWED_NETWORK: `eip155:${deployment.chainId}`,
        SVC_STATE_DIR: join(dir, stateName),
        ...extra,
      }),
      balanceOf: (owner) => chain.readContract({ address: deployment.token, abi: zerc20TokenAbiV1, functionName: "balanceOf", args: [owner] }),
      transfersTo: async (to) => {
        const logs = await chain.getLogs({
          address: deployment.token,
          event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
          args: { to },
          fromBlock: BigInt(deployment.deployBlockNumber),
          toBlock: "latest",
        });
        return logs.map((log) => ({ transactionHash: log.transactionHash, value: log.args.value ?? 0n }));
      },
      close,
    };
    if (options.provider === false) return world;

    const provider = await startProviderProcess({ facilitatorUrl: facilitator.url, price });
    stoppers.push(() => provider.stop());
    return {
      ...world,
      provider,
      weatherUrl: `${provider.url}/weather`,
      startProviderWithoutPermit: async () => {
        const toml = await readFile(stack.files.facilitatorToml, "utf8");
        const configPath = join(dir, "without-permit.toml");
        await writeFile(configPath, toml.replace(/^permit_burner = .*$/m, "").replace(/^journal = .*$/m, 'journal = "without-permit.journal.jsonl"'));
        const second = await startFacilitatorProcess({ configPath, env: facilitatorEnv });
        stoppers.push(() => second.stop());
        const secondProvider = await startProviderProcess({ facilitatorUrl: second.url, price });
        stoppers.push(() => secondProvider.stop());
        return {
          weatherUrl: `${secondProvider.url}/weather`,
          stop: async () => {
            await secondProvider.stop();
            await second.stop();
          },
        };
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
