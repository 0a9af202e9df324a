/**
 * What the daemon asks the chain before it touches any state: every endpoint's chain id, the chain the state
 * was written on, the deployed protocol version and the token's facts. A mismatch stops the start with a named
 * error; what only deserves a word (and the configuration's startup rules) is logged as a warning.
 */
import { detectProtocolVersion } from "@svc/scheme";
import type { PublicClient } from "viem";
import { ChainIdentityMismatchError, isSameChain, readChainIdentity } from "../chain/chainIdentity.js";
import type { RpcEndpointHealth } from "../chain/rpcEndpointHealth.js";
import { readTokenFacts, type TokenFacts } from "../chain/readTokenFacts.js";
import { assertRpcChainId } from "../config/assertRpcChainId.js";
import { checkStartupRules } from "../config/checkStartupRules.js";
import { ProtocolVersionMismatchError } from "../config/errors.js";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { LoadConfigReturnType } from "../config/loadConfig.js";
import type { Logger } from "../log/createLogger.js";
import type { FacilitatorStorage } from "../storage/storagePorts.js";
import type { ChainWiring } from "./wireChain.js";

/** What {@link runStartupChecks} reads. */
export type StartupCheckParts = LoadConfigReturnType & {
  chain: Pick<ChainWiring, "client" | "endpointClients" | "rpcHealth" | "deployment">;
  storage: FacilitatorStorage;
  logger: Logger;
};

/** What the checks learnt. */
export type StartupCheckResult = { token: TokenFacts };

/** Runs the start-up checks; throws the first mismatch. */
export async function runStartupChecks({ config, secrets, warnings, chain, storage, logger }: StartupCheckParts): Promise<StartupCheckResult> {
  const { client, deployment } = chain;
  const rpcChainId = await readEndpointChainIds(config, chain.endpointClients, chain.rpcHealth);
  await checkChainIdentity(client, storage);
  const deployed = await detectProtocolVersion(client, { token: deployment.token, verifier: deployment.verifier });
  if (deployed.version !== config.network.protocol) {
    throw new ProtocolVersionMismatchError({ configured: config.network.protocol, deployed: deployed.version });
  }
  const token = await readTokenFacts(client, deployment.token);
  if (config.settlement.permit_burner !== undefined && !token.permit) {
    logger.warn("permit_unsupported", { message: "the token has no EIP-2612 permit: offers carry no helper, only the self-transfer path is offered" });
  }
  const startupWarnings = [...warnings, ...checkStartupRules({ config, secrets, rpcChainId })];
  for (const warning of dedupe(startupWarnings)) logger.warn(warning.code, { message: warning.message });
  return { token };
}

/**
 * Asks every endpoint for its chain id at start: one that answers with another chain stops the start (an error
 * naming its key, never its URL), one that does not answer is left to the failover transport's backoff, and
 * none answering stops the start with the last endpoint's error.
 */
async function readEndpointChainIds(config: FacilitatorConfig, clients: readonly PublicClient[], health: RpcEndpointHealth): Promise<number> {
  const readings = await Promise.allSettled(clients.map((endpoint) => endpoint.getChainId()));
  const last = readings.at(-1);
  if (last?.status === "rejected" && readings.every((reading) => reading.status === "rejected")) throw last.reason;
  readings.forEach((reading, index) => {
    if (reading.status === "fulfilled") {
      assertRpcChainId(config, reading.value, index);
      health.chainChecked(index);
      health.succeeded(index);
    } else health.failed(index, reading.reason instanceof Error ? reading.reason.name : "unknown");
  });
  return config.network.chain_id;
}

/**
 * Refuses a start on state written on another chain (chain/chainIdentity.ts); the first start on a state
 * records the chain it runs on. Without a journal (`journal = "none"`) there is no state to mismatch: the claim
 * answers with the chain itself.
 */
async function checkChainIdentity(client: PublicClient, storage: FacilitatorStorage): Promise<void> {
  const actual = await readChainIdentity(client);
  const recorded = await storage.chainIdentity.claim(actual);
  if (!isSameChain(recorded, actual)) throw new ChainIdentityMismatchError({ state: storage.location, recorded, actual });
}

function dedupe<T extends { code: string; message: string }>(warnings: readonly T[]): T[] {
  const seen = new Set<string>();
  return warnings.filter((warning) => {
    const key = `${warning.code}:${warning.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
