/**
 * The local zERC20 world in one call, under one protocol version: anvil, every contract, the fixture indexer
 * (with its root job) and the fixture decider, plus `deployment.json`, `facilitator.toml` and
 * `facilitator.env` in the stack folder. With `singleTeleportVerifier: "groth16"` the verifier checks real
 * single-teleport proofs and `facilitator.toml` proves them with snarkjs. `make stack` runs it in the
 * foreground; tests call it directly.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from "@svc/scheme";
import { createPublicClient, http, type Address, type Hex } from "viem";
import { devAccounts, FIXTURE_PROVER_ADDRESS, FIXTURE_PROVER_PRIVATE_KEY, type DevAccount, type DevAccountName } from "../accounts/devAccounts.js";
import { AnvilPortInUseError } from "../anvil/errors.js";
import { startAnvil } from "../anvil/startAnvil.js";
import { createDeciderApp } from "../decider/deciderApp.js";
import { deployContracts, type Deployment, type SingleTeleportVerifierKind } from "../deploy/deployContracts.js";
import { listen } from "../http/listen.js";
import { startIndexer, type RunningIndexer } from "../indexer/startIndexer.js";
import { type StackService, StackPortInUseError } from "./errors.js";
import { historyFileOf, journalFileOf, renderFacilitatorEnv, renderFacilitatorToml } from "./facilitatorFiles.js";

/** Where the stack listens and writes. Ports default to 0 (a free port each). */
export type StartStackOptions = {
  /** Folder for `deployment.json`, `facilitator.toml`, `facilitator.env` (created if missing). */
  dir: string;
  /** The zERC20 version to deploy and index (default `zerc20-v2`, what every published deployment runs). */
  protocol?: ProtocolVersion;
  /** Token decimals (v2 only; default 18). */
  decimals?: number;
  anvilPort?: number;
  indexerPort?: number;
  deciderPort?: number;
  /** Port written into `facilitator.toml` (default 4032). */
  facilitatorPort?: number;
  /** Root job interval (default 500 ms): how soon a transfer becomes provable. */
  rootIntervalMs?: number;
  /** anvil without automine, for tests that hold transactions in the mempool. */
  automine?: boolean;
  /** What verifies single-teleport proofs (default `fixture-signature`; `groth16`: real proofs of the local circuit). */
  singleTeleportVerifier?: SingleTeleportVerifierKind;
  /** Payment history on in `facilitator.env` (its file in `dir`, named after the chain like the journal); off by default. */
  paymentHistory?: boolean;
  /** Receives background failures of the indexer; they never stop the stack. */
  onError?: (error: unknown) => void;
};

/** The contents of `deployment.json`. */
export type StackDeployment = {
  /** The zERC20 version of token, verifier, indexer API and proofs. */
  protocol: ProtocolVersion;
  rpcUrl: string;
  chainId: number;
  token: Address;
  /** The token's decimals. */
  decimals: number;
  verifier: Address;
  hub: Address;
  /** The verifier's `hubEid()`. */
  hubEid: number;
  /** The account the indexer proves roots with (allow-listed on a v2 verifier). */
  rootProver: Address;
  /** PermitBurner; the gasless path needs EIP-2612, which only a v2 token has. */
  permitBurner: Address;
  feeSplitter: Address;
  feeSplit: Deployment["feeSplit"];
  /** The EIP-3009 fixture token (FixtureUsdc3009) the official x402 `exact` scheme pays with in the benchmarks. */
  usdc3009: Address;
  proofVerifiers: Deployment["proofVerifiers"];
  /** What `proofVerifiers.withdraw_single` checks. */
  singleTeleportVerifier: SingleTeleportVerifierKind;
  /** Under `groth16`: the files a Groth16 prover of this stack reads. */
  singleTeleportCircuit?: { wasmPath: string; zkeyPath: string } | undefined;
  indexerUrl: string;
  deciderUrl: string;
  /** The published fixture proof key (private on purpose: the fixture proof system is local-only). */
  fixtureProverKey: Hex;
  fixtureProver: Address;
  accounts: Record<DevAccountName, DevAccount>;
  deployBlockNumber: string;
};

/** A running stack. */
export type RunningStack = {
  deployment: StackDeployment;
  files: { deployment: string; facilitatorToml: string; facilitatorEnv: string };
  indexer: RunningIndexer;
  /** Stops every service the stack started; safe to call more than once. */
  stop: () => Promise<void>;
};

/**
 * Starts the whole local stack; on any failure it stops what it had started and rethrows, a taken port as
 * {@link StackPortInUseError}. Files are written last, so a failed start leaves the folder as it was.
 */
export async function startStack(options: StartStackOptions): Promise<RunningStack> {
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async () => {
    while (stoppers.length > 0)
      await stoppers
        .pop()?.()
        .catch(() => undefined);
  };
  try {
    const accounts = devAccounts();
    const anvil = await onPort("anvil", options.anvilPort, () => startAnvil({ port: options.anvilPort, automine: options.automine }));
    stoppers.push(anvil.stop);
    const protocol = options.protocol ?? DEFAULT_PROTOCOL_VERSION;
    const contracts = await deployContracts({
      rpcUrl: anvil.rpcUrl,
      accounts,
      protocol,
      decimals: options.decimals,
      singleTeleportVerifier: options.singleTeleportVerifier,
    });
    const indexer = await onPort("indexer", options.indexerPort, () =>
      startIndexer({
        rpcUrl: anvil.rpcUrl,
        chainId: contracts.chainId,
        protocol,
        token: contracts.token,
        verifier: contracts.verifier,
        rootProverKey: accounts.rootProver.privateKey,
        fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
        port: options.indexerPort,
        rootIntervalMs: options.rootIntervalMs ?? 500,
        onError: options.onError,
      }),
    );
    stoppers.push(indexer.close);
    const decider = await onPort("decider", options.deciderPort, () =>
      listen(
        createDeciderApp({
          chainId: contracts.chainId,
          fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
          fixtureProverAddress: FIXTURE_PROVER_ADDRESS,
        }),
        { port: options.deciderPort },
      ),
    );
    stoppers.push(decider.close);

    const deployment: StackDeployment = {
      protocol,
      rpcUrl: anvil.rpcUrl,
      chainId: contracts.chainId,
      token: contracts.token,
      decimals: contracts.decimals,
      verifier: contracts.verifier,
      hub: contracts.hub,
      hubEid: contracts.hubEid,
      rootProver: contracts.rootProver,
      permitBurner: contracts.permitBurner,
      feeSplitter: contracts.feeSplitter,
      feeSplit: contracts.feeSplit,
      usdc3009: contracts.usdc3009,
      proofVerifiers: contracts.proofVerifiers,
      singleTeleportVerifier: contracts.singleTeleportVerifier,
      ...(contracts.singleTeleportCircuit === undefined ? {} : { singleTeleportCircuit: contracts.singleTeleportCircuit }),
      indexerUrl: indexer.url,
      deciderUrl: decider.url,
      fixtureProverKey: FIXTURE_PROVER_PRIVATE_KEY,
      fixtureProver: FIXTURE_PROVER_ADDRESS,
      accounts,
      deployBlockNumber: contracts.deployBlockNumber.toString(),
    };
    const files = await writeStackFiles(options, deployment);
    return { deployment, files, indexer, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs `start`, which binds `port` for `service`, and turns a failure to bind it into a {@link StackPortInUseError}. */
async function onPort<T>(service: StackService, port: number | undefined, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (port !== undefined && port !== 0 && isAddressInUse(error)) throw new StackPortInUseError(service, port, error);
    throw error;
  }
}

function isAddressInUse(error: unknown): boolean {
  if (error instanceof AnvilPortInUseError) return true;
  if (typeof error !== "object" || error === null) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return code === "EADDRINUSE" && syscall === "listen";
}

async function writeStackFiles(options: StartStackOptions, deployment: StackDeployment): Promise<RunningStack["files"]> {
  await mkdir(options.dir, { recursive: true });
  const files = {
    deployment: join(options.dir, "deployment.json"),
    facilitatorToml: join(options.dir, "facilitator.toml"),
    facilitatorEnv: join(options.dir, "facilitator.env"),
  };
  const genesis = await createPublicClient({ transport: http(deployment.rpcUrl) }).getBlock({ blockNumber: 0n });
  const input = {
    ...deployment,
    journal: journalFileOf(genesis.hash),
    treasury: deployment.accounts.treasury.address,
    feeRecipient: deployment.accounts.feeRecipient.address,
    treasuryKey: deployment.accounts.treasury.privateKey,
    relayerKey: deployment.accounts.relayer.privateKey,
    listenPort: options.facilitatorPort ?? 4032,
    singleTeleportCircuit: deployment.singleTeleportCircuit,
    paymentHistory:
      options.paymentHistory === true
        ? { path: join(resolve(options.dir), historyFileOf(genesis.hash)), payerAddress: deployment.accounts.payer.address }
        : undefined,
  };
  await writeFile(files.deployment, `${JSON.stringify(deployment, null, 2)}\n`);
  await writeFile(files.facilitatorToml, renderFacilitatorToml(input));
  await writeFile(files.facilitatorEnv, renderFacilitatorEnv(input), { mode: 0o600 });
  return files;
}
