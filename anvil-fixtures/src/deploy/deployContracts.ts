/**
 * Deploys the local zERC20 world of one protocol version (token, hub, fixture proof verifiers, verifier) and
 * the product contracts (PermitBurner, FeeSplitter), wires the token's roles, allow-lists the root prover (v2)
 * and funds the payers; last, the EIP-3009 fixture token the official x402 `exact` scheme pays with
 * (benchmarks), so every earlier address stays where it was.
 *
 * Every transaction is signed locally with an explicit nonce, gas limit and fee, and all of them are
 * submitted at once before any receipt is awaited: the deployer's nonce order already serialises them on
 * chain, and contract addresses are known in advance from that nonce, so no step has to wait for the
 * previous one's receipt (and the hub and the verifier can name each other in their constructors).
 */
import {
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  http,
  parseUnits,
  WaitForTransactionReceiptTimeoutError,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEFAULT_PROTOCOL_VERSION, emptyTreeRoot, fixtureCircuitTag, type FixtureCircuit, type ProtocolVersion } from "@svc/scheme";
import { devAccounts, FIXTURE_PROVER_ADDRESS, type DevAccount, type DevAccountName } from "../accounts/devAccounts.js";
import type { ContractArtifact } from "../compile/artifactCache.js";
import { loadArtifacts, type DeployableContractName, type LoadArtifactsReturnType } from "../compile/loadArtifacts.js";
import { buildSingleTeleportCircuit } from "../circuits/buildSingleTeleportCircuit.js";
import { fixtureTokenAdminAbi, fixtureVerifierV2AdminAbi } from "../contracts/fixtureAdminAbis.js";
import {
  DeploymentAddressMismatchError,
  DeploymentTransactionFailedError,
  DeploymentTransactionNotMinedError,
  InvalidDeploymentParameterError,
} from "./errors.js";

/** Name of the fixture token (also its EIP-2612 domain name under v2). */
export const FIXTURE_TOKEN_NAME = "Fixture zERC20";
/** Symbol of the fixture token. */
export const FIXTURE_TOKEN_SYMBOL = "zFIX";
/** Decimals of the fixture token unless a v2 deployment picks others; v1 tokens always have 18. */
export const FIXTURE_TOKEN_DECIMALS = 18;
/** Whole tokens minted to `payer` and `payer2` each unless `payerBalance` says otherwise. */
export const DEFAULT_PAYER_TOKENS = 1_000_000n;
/** Default fee share of the FeeSplitter in basis points (1%). */
export const DEFAULT_FEE_BPS = 100;
/** Default zERC20 balance minted to each payer at the default 18 decimals: one million tokens. */
export const DEFAULT_PAYER_BALANCE: bigint = parseUnits(DEFAULT_PAYER_TOKENS.toString(), FIXTURE_TOKEN_DECIMALS);
/**
 * The verifier's `hubEid()`. No LayerZero endpoint runs on the local chain, so the value is only reported;
 * the local chain id stands in for it.
 */
export const FIXTURE_HUB_EID = 31337;
/** Name (and EIP-712 domain name) of the EIP-3009 fixture token. */
export const FIXTURE_USDC3009_NAME = "Fixture USD Coin";
/** Symbol of the EIP-3009 fixture token. */
export const FIXTURE_USDC3009_SYMBOL = "fUSDC";
/** Decimals of the EIP-3009 fixture token (like USDC). */
export const FIXTURE_USDC3009_DECIMALS = 6;
/** EIP-3009 fixture token minted to `payer` and `payer2` each: one million tokens. */
export const FIXTURE_USDC3009_PAYER_BALANCE: bigint = parseUnits("1000000", FIXTURE_USDC3009_DECIMALS);

/** The circuits verified on chain, each by its own fixture proof verifier (the `ivc_*` ones never reach a contract). */
export type OnChainFixtureCircuit = Extract<FixtureCircuit, "root" | "withdraw_single" | "withdraw_local" | "withdraw_global">;

/**
 * What verifies single-teleport proofs: the fixture key's signature in the proof's place (fast, the default),
 * or real Groth16 proofs of the local circuit through the Solidity verifier snarkjs exports for its key.
 */
export type SingleTeleportVerifierKind = "fixture-signature" | "groth16";

/** Options of {@link deployContracts}. */
export type DeployContractsParameters = {
  /** JSON-RPC endpoint of the chain (anvil). */
  rpcUrl: string;
  /** Which zERC20 version's token and verifier to deploy; defaults to `zerc20-v2`, the deployed one. */
  protocol?: ProtocolVersion;
  /** Token decimals (v2 only, 0..36; zUSDC has 6); defaults to {@link FIXTURE_TOKEN_DECIMALS}. */
  decimals?: number;
  /** How long each step's receipt is awaited before `DeploymentTransactionNotMinedError`; default 30 s. */
  receiptDeadlineMs?: number;
  /** The named dev accounts; defaults to {@link devAccounts}. */
  accounts?: Record<DevAccountName, DevAccount>;
  /** FeeSplitter fee share in basis points, 1..10000; defaults to {@link DEFAULT_FEE_BPS}. */
  feeBps?: number;
  /** zERC20 minted to `payer` and `payer2` each (base units); defaults to one million whole tokens. */
  payerBalance?: bigint;
  /** Precompiled artifacts; loaded (from the cache when possible) when omitted. */
  artifacts?: LoadArtifactsReturnType;
  /** Defaults to `fixture-signature`; `groth16` builds (or reads from the cache) the circuit of `protocol`. */
  singleTeleportVerifier?: SingleTeleportVerifierKind;
};

/** Where everything landed. */
export type Deployment = {
  /** The zERC20 version the token and verifier implement. */
  protocol: ProtocolVersion;
  /** Chain the contracts live on. */
  chainId: number;
  /** Owner of token, hub and verifier; also the token's minter. */
  deployer: Address;
  /** The fixture zERC20 token of {@link Deployment.protocol}. */
  token: Address;
  /** The token's decimals. */
  decimals: number;
  /** The fixture hub (relays global roots its owner publishes into the verifier). */
  hub: Address;
  /** The verifier's `hubEid()`. */
  hubEid: number;
  /** Fixture proof verifier per circuit: Groth16 for `withdraw_single`, deciders for the others. */
  proofVerifiers: Record<OnChainFixtureCircuit, Address>;
  /** What `proofVerifiers.withdraw_single` checks: fixture signatures or real Groth16 proofs. */
  singleTeleportVerifier: SingleTeleportVerifierKind;
  /** Under `groth16`: the witness calculator and proving key a prover of this deployment uses. */
  singleTeleportCircuit?: { wasmPath: string; zkeyPath: string } | undefined;
  /** The zERC20 verifier of {@link Deployment.protocol} (proved roots and teleport mint). */
  verifier: Address;
  /** The account that proves transfer roots (allow-listed on a v2 verifier; anyone may under v1). */
  rootProver: Address;
  /** PermitBurner (the gasless path's `extra.helper`; usable only with a v2 token, which has permit). */
  permitBurner: Address;
  /** FeeSplitter (the treasury in split fee mode). */
  feeSplitter: Address;
  /** The FeeSplitter's immutable configuration. */
  feeSplit: { payee: Address; feeRecipient: Address; bps: number };
  /** FixtureUsdc3009: the EIP-3009 token of the official x402 `exact` scheme (benchmarks only; owner = deployer). */
  usdc3009: Address;
  /** The fixture prover key's address every proof verifier accepts. */
  fixtureProver: Address;
  /** Root of the empty transfer tree, stored at proved index 0. */
  emptyRoot: bigint;
  /** zERC20 minted to each payer. */
  payerBalance: bigint;
  /** Block of the token deployment: where an indexer starts scanning. */
  deployBlockNumber: bigint;
  /** Block of the last deployment transaction: everything is in place from here on. */
  readyBlockNumber: bigint;
};

/** One transaction of the plan; creations carry the address their nonce determines. */
type Step = { label: string; to?: Address; data: Hex; gas?: bigint; expectedAddress?: Address };

/** Gas for the wiring and funding calls; each needs well under half of it. */
const CALL_GAS = 300_000n;
/** Headroom over the estimate for contract creations, in percent of it. */
const DEPLOY_GAS_PERCENT = 125n;
/** Priority fee of every deployment transaction. */
const PRIORITY_FEE = 1_000_000_000n;

/** The version-specific contracts of each protocol. */
const VERSION_CONTRACTS: Record<ProtocolVersion, { token: DeployableContractName; verifier: DeployableContractName }> = {
  "zerc20-v1": { token: "FixtureZErc20V1", verifier: "FixtureVerifierV1" },
  "zerc20-v2": { token: "FixtureZErc20V2", verifier: "FixtureVerifierV2" },
};

/**
 * Deploys and wires every contract of the local stack for one protocol version; resolves once all
 * transactions are mined (on a chain started with automine off, that is when the caller mines them).
 * @example
 * const anvil = await startAnvil();
 * const deployment = await deployContracts({ rpcUrl: anvil.rpcUrl, protocol: "zerc20-v1" });
 * deployment.verifier; // a FixtureVerifierV1
 */
export async function deployContracts(parameters: DeployContractsParameters): Promise<Deployment> {
  const protocol = parameters.protocol ?? DEFAULT_PROTOCOL_VERSION;
  const accounts = parameters.accounts ?? devAccounts();
  const feeBps = parameters.feeBps ?? DEFAULT_FEE_BPS;
  const decimals = parameters.decimals ?? FIXTURE_TOKEN_DECIMALS;
  if (!Number.isInteger(feeBps) || feeBps < 1 || feeBps > 10_000) {
    throw new InvalidDeploymentParameterError("feeBps", `must be an integer in 1..10000, got ${feeBps}`);
  }
  // 36 keeps one million whole tokens below the token's 2^248 - 1 cap per balance change.
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) {
    throw new InvalidDeploymentParameterError("decimals", `must be an integer in 0..36, got ${decimals}`);
  }
  if (protocol === "zerc20-v1" && decimals !== FIXTURE_TOKEN_DECIMALS) {
    throw new InvalidDeploymentParameterError("decimals", `a zerc20-v1 token has ${FIXTURE_TOKEN_DECIMALS} decimals, got ${decimals}`);
  }
  const payerBalance = parameters.payerBalance ?? DEFAULT_PAYER_TOKENS * 10n ** BigInt(decimals);
  const client = createPublicClient({ transport: http(parameters.rpcUrl), pollingInterval: 50 });
  const deployer = privateKeyToAccount(accounts.deployer.privateKey);

  const singleTeleportVerifier = parameters.singleTeleportVerifier ?? "fixture-signature";
  const [artifacts, chainId, startNonce, block, circuit] = await Promise.all([
    parameters.artifacts ?? loadArtifacts(),
    client.getChainId(),
    client.getTransactionCount({ address: deployer.address, blockTag: "pending" }),
    client.getBlock(),
    singleTeleportVerifier === "groth16" ? buildSingleTeleportCircuit({ protocol }) : undefined,
  ]);

  // The plan's order fixes the nonces, and with them every contract address, before anything is sent.
  const plan: Step[] = [];
  const addressAt = (offset: number): Address => getContractAddress({ from: deployer.address, nonce: BigInt(startNonce + offset) });
  const deployArtifact = (label: string, { abi, bytecode }: ContractArtifact, args: readonly unknown[]): Address => {
    const expectedAddress = addressAt(plan.length);
    plan.push({ label, data: encodeDeployData({ abi, bytecode, args }), expectedAddress });
    return expectedAddress;
  };
  const deploy = (label: string, contract: DeployableContractName, args: readonly unknown[]): Address => deployArtifact(label, artifacts[contract], args);
  const deployProofVerifier = (contract: DeployableContractName, circuit: OnChainFixtureCircuit): Address =>
    deploy(`deploy ${contract}(${circuit})`, contract, [FIXTURE_PROVER_ADDRESS, fixtureCircuitTag(circuit)]);
  const call = (label: string, to: Address, data: Hex): void => {
    plan.push({ label, to, data, gas: CALL_GAS });
  };

  const versionContracts = VERSION_CONTRACTS[protocol];
  const emptyRoot = emptyTreeRoot();
  const tokenArgs =
    protocol === "zerc20-v1"
      ? [FIXTURE_TOKEN_NAME, FIXTURE_TOKEN_SYMBOL, deployer.address]
      : [FIXTURE_TOKEN_NAME, FIXTURE_TOKEN_SYMBOL, decimals, deployer.address];
  const token = deploy(`deploy ${versionContracts.token}`, versionContracts.token, tokenArgs);
  // The hub and the verifier name each other; the verifier's address follows from its place in the plan.
  const verifierOffset = plan.length + 5;
  const hub = deploy("deploy FixtureHub", "FixtureHub", [deployer.address, addressAt(verifierOffset)]);
  const proofVerifiers: Record<OnChainFixtureCircuit, Address> = {
    withdraw_single:
      circuit === undefined
        ? deployProofVerifier("FixtureGroth16Verifier", "withdraw_single")
        : deployArtifact("deploy Groth16Verifier(withdraw_single)", circuit.verifier, []),
    withdraw_local: deployProofVerifier("FixtureWithdrawDeciderVerifier", "withdraw_local"),
    withdraw_global: deployProofVerifier("FixtureWithdrawDeciderVerifier", "withdraw_global"),
    root: deployProofVerifier("FixtureRootDeciderVerifier", "root"),
  };
  if (plan.length !== verifierOffset)
    throw new DeploymentAddressMismatchError(`deploy ${versionContracts.verifier}`, addressAt(verifierOffset), addressAt(plan.length));
  const verifier = deploy(`deploy ${versionContracts.verifier}`, versionContracts.verifier, [
    token,
    hub,
    FIXTURE_HUB_EID,
    proofVerifiers.withdraw_single,
    proofVerifiers.withdraw_local,
    proofVerifiers.withdraw_global,
    proofVerifiers.root,
    emptyRoot,
    deployer.address,
  ]);
  const permitBurner = deploy("deploy PermitBurner", "PermitBurner", []);
  const feeSplitter = deploy("deploy FeeSplitter", "FeeSplitter", [accounts.payee.address, accounts.feeRecipient.address, feeBps]);
  const tokenCall = (functionName: "setMinter" | "setVerifier", account: Address): Hex =>
    encodeFunctionData({ abi: fixtureTokenAdminAbi, functionName, args: [account] });
  const mintCall = (to: Address): Hex => encodeFunctionData({ abi: fixtureTokenAdminAbi, functionName: "mint", args: [to, payerBalance] });
  call("setMinter", token, tokenCall("setMinter", deployer.address));
  call("setVerifier", token, tokenCall("setVerifier", verifier));
  call("mint payer", token, mintCall(accounts.payer.address));
  call("mint payer2", token, mintCall(accounts.payer2.address));
  if (protocol === "zerc20-v2") {
    // Only allow-listed provers may prove roots under v2; the fixture indexer sends as `rootProver`.
    const allow = encodeFunctionData({ abi: fixtureVerifierV2AdminAbi, functionName: "setAllowedProver", args: [accounts.rootProver.address, true] });
    call("allow rootProver", verifier, allow);
  }
  // Appended last: the nonces, and so the addresses, of everything above stay what they always were.
  const usdc3009 = deploy("deploy FixtureUsdc3009", "FixtureUsdc3009", [FIXTURE_USDC3009_NAME, FIXTURE_USDC3009_SYMBOL, deployer.address]);
  const usdcMintCall = (to: Address): Hex =>
    encodeFunctionData({ abi: artifacts.FixtureUsdc3009.abi, functionName: "mint", args: [to, FIXTURE_USDC3009_PAYER_BALANCE] });
  call("mint payer fUSDC", usdc3009, usdcMintCall(accounts.payer.address));
  call("mint payer2 fUSDC", usdc3009, usdcMintCall(accounts.payer2.address));

  // Constructors only store values, so creations can be estimated before anything exists; calls into the
  // not-yet-deployed contracts cannot, and carry a fixed limit instead.
  const gasLimits = await Promise.all(
    plan.map(async (step) => {
      if (step.gas !== undefined) return step.gas;
      const estimate = await client.estimateGas({ account: deployer.address, data: step.data });
      return (estimate * DEPLOY_GAS_PERCENT) / 100n;
    }),
  );

  // Twice the current base fee survives several blocks of base fee increase before anything is mined.
  const maxFeePerGas = (block.baseFeePerGas ?? 1_000_000_000n) * 2n + PRIORITY_FEE;
  const signed = await Promise.all(
    plan.map((step, offset) =>
      deployer.signTransaction({
        type: "eip1559",
        chainId,
        nonce: startNonce + offset,
        gas: gasLimits[offset],
        maxFeePerGas,
        maxPriorityFeePerGas: PRIORITY_FEE,
        to: step.to ?? null,
        data: step.data,
      }),
    ),
  );
  // Submitted in nonce order, without waiting for any receipt in between.
  const submitted: { step: Step; hash: Hash }[] = [];
  for (const [offset, serializedTransaction] of signed.entries()) {
    const step = plan[offset];
    if (step === undefined) continue;
    submitted.push({ step, hash: await client.sendRawTransaction({ serializedTransaction }) });
  }
  const deadlineMs = parameters.receiptDeadlineMs ?? RECEIPT_DEADLINE_MS;
  const blockNumbers = await Promise.all(submitted.map(({ step, hash }) => confirmStep(client, step, hash, deadlineMs)));

  return {
    protocol,
    chainId,
    deployer: deployer.address,
    token,
    decimals,
    hub,
    hubEid: FIXTURE_HUB_EID,
    proofVerifiers,
    singleTeleportVerifier,
    ...(circuit === undefined ? {} : { singleTeleportCircuit: { wasmPath: circuit.wasmPath, zkeyPath: circuit.zkeyPath } }),
    verifier,
    rootProver: accounts.rootProver.address,
    permitBurner,
    feeSplitter,
    feeSplit: { payee: accounts.payee.address, feeRecipient: accounts.feeRecipient.address, bps: feeBps },
    usdc3009,
    fixtureProver: FIXTURE_PROVER_ADDRESS,
    emptyRoot,
    payerBalance,
    deployBlockNumber: blockNumbers[0] ?? 0n,
    readyBlockNumber: blockNumbers.reduce((latest, current) => (current > latest ? current : latest), 0n),
  };
}

// Well past what an automining node needs; a miss then fails with the step named instead of a test timeout.
const RECEIPT_DEADLINE_MS = 30_000;

async function confirmStep(client: PublicClient, step: Step, hash: Hash, deadlineMs: number): Promise<bigint> {
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: deadlineMs }).catch(async (error: unknown) => {
    if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error;
    const knownToNode = await client.getTransaction({ hash }).then(
      () => true,
      () => false,
    );
    throw new DeploymentTransactionNotMinedError(step.label, hash, { timeoutMs: deadlineMs, knownToNode });
  });
  if (receipt.status !== "success") throw new DeploymentTransactionFailedError(step.label, hash);
  const { expectedAddress } = step;
  if (expectedAddress !== undefined && receipt.contractAddress?.toLowerCase() !== expectedAddress.toLowerCase()) {
    throw new DeploymentAddressMismatchError(step.label, expectedAddress, receipt.contractAddress);
  }
  return receipt.blockNumber;
}
