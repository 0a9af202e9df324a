/**
 * Deploys the local zERC20 world (token, hub, fixture proof verifiers, verifier) and the product contracts
 * (PermitBurner, FeeSplitter), wires the token's roles and funds the payers; last, the EIP-3009 fixture token
 * the official x402 `exact` scheme pays with (benchmarks), so every earlier address stays where it was.
 *
 * Every transaction is signed locally with an explicit nonce, gas limit and fee, and all of them are
 * submitted at once before any receipt is awaited: the deployer's nonce order already serialises them on
 * chain, and contract addresses are known in advance from that nonce, so no step has to wait for the
 * previous one's receipt.
 */
import {
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  http,
  parseUnits,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { emptyTreeRoot, fixtureCircuitTag, zerc20TokenAbi, type FixtureCircuit } from "@svc/scheme";
import { devAccounts, FIXTURE_PROVER_ADDRESS, type DevAccount, type DevAccountName } from "../accounts/devAccounts.js";
import { loadArtifacts, type LoadArtifactsReturnType } from "../compile/loadArtifacts.js";
import { DeploymentAddressMismatchError, DeploymentTransactionFailedError, InvalidDeploymentParameterError } from "./errors.js";

/** Name of the fixture token. */
export const FIXTURE_TOKEN_NAME = "Fixture zERC20";
/** Symbol of the fixture token. */
export const FIXTURE_TOKEN_SYMBOL = "zFIX";
/** Decimals of the fixture token. */
export const FIXTURE_TOKEN_DECIMALS = 18;
/** Default fee share of the FeeSplitter in basis points (1%). */
export const DEFAULT_FEE_BPS = 100;
/** Default zERC20 balance minted to each payer: one million tokens. */
export const DEFAULT_PAYER_BALANCE: bigint = parseUnits("1000000", FIXTURE_TOKEN_DECIMALS);
/** Name (and EIP-712 domain name) of the EIP-3009 fixture token. */
export const FIXTURE_USDC3009_NAME = "Fixture USD Coin";
/** Symbol of the EIP-3009 fixture token. */
export const FIXTURE_USDC3009_SYMBOL = "fUSDC";
/** Decimals of the EIP-3009 fixture token (like USDC). */
export const FIXTURE_USDC3009_DECIMALS = 6;
/** EIP-3009 fixture token minted to `payer` and `payer2` each: one million tokens. */
export const FIXTURE_USDC3009_PAYER_BALANCE: bigint = parseUnits("1000000", FIXTURE_USDC3009_DECIMALS);

/** The circuits verified on chain, each by its own FixtureProofVerifier (the `ivc_*` ones never reach a contract). */
export type OnChainFixtureCircuit = Extract<FixtureCircuit, "root" | "withdraw_single" | "withdraw_local" | "withdraw_global">;

/** Options of {@link deployContracts}. */
export type DeployContractsParameters = {
  /** JSON-RPC endpoint of the chain (anvil). */
  rpcUrl: string;
  /** The named dev accounts; defaults to {@link devAccounts}. */
  accounts?: Record<DevAccountName, DevAccount>;
  /** FeeSplitter fee share in basis points, 1..10000; defaults to {@link DEFAULT_FEE_BPS}. */
  feeBps?: number;
  /** zERC20 minted to `payer` and `payer2` each (base units); defaults to {@link DEFAULT_PAYER_BALANCE}. */
  payerBalance?: bigint;
  /** Precompiled artifacts; loaded (from the cache when possible) when omitted. */
  artifacts?: LoadArtifactsReturnType;
};

/** Where everything landed. */
export type Deployment = {
  /** Chain the contracts live on. */
  chainId: number;
  /** Owner of token, hub and verifier; also the token's minter. */
  deployer: Address;
  /** FixtureZErc20. */
  token: Address;
  /** Hub (global root storage). */
  hub: Address;
  /** FixtureProofVerifier per circuit. */
  proofVerifiers: Record<OnChainFixtureCircuit, Address>;
  /** The zERC20 Verifier (proved roots and teleport mint). */
  verifier: Address;
  /** PermitBurner (the gasless path's `extra.helper`). */
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

/**
 * Deploys and wires every contract of the local stack; resolves once all transactions are mined (on a chain
 * started with automine off, that is when the caller mines them).
 * @example
 * const anvil = await startAnvil();
 * const deployment = await deployContracts({ rpcUrl: anvil.rpcUrl });
 * deployment.permitBurner; // extra.helper
 */
export async function deployContracts(parameters: DeployContractsParameters): Promise<Deployment> {
  const accounts = parameters.accounts ?? devAccounts();
  const feeBps = parameters.feeBps ?? DEFAULT_FEE_BPS;
  const payerBalance = parameters.payerBalance ?? DEFAULT_PAYER_BALANCE;
  if (!Number.isInteger(feeBps) || feeBps < 1 || feeBps > 10_000) {
    throw new InvalidDeploymentParameterError("feeBps", `must be an integer in 1..10000, got ${feeBps}`);
  }
  const client = createPublicClient({ transport: http(parameters.rpcUrl), pollingInterval: 50 });
  const deployer = privateKeyToAccount(accounts.deployer.privateKey);

  const [artifacts, chainId, startNonce, block] = await Promise.all([
    parameters.artifacts ?? loadArtifacts(),
    client.getChainId(),
    client.getTransactionCount({ address: deployer.address, blockTag: "pending" }),
    client.getBlock(),
  ]);

  // The plan's order fixes the nonces, and with them every contract address, before anything is sent.
  const plan: Step[] = [];
  const deploy = (label: string, contract: keyof LoadArtifactsReturnType, args: readonly unknown[]): Address => {
    const expectedAddress = getContractAddress({ from: deployer.address, nonce: BigInt(startNonce + plan.length) });
    const { abi, bytecode } = artifacts[contract];
    plan.push({ label, data: encodeDeployData({ abi, bytecode, args }), expectedAddress });
    return expectedAddress;
  };
  const deployProofVerifier = (circuit: OnChainFixtureCircuit): Address =>
    deploy(`deploy FixtureProofVerifier(${circuit})`, "FixtureProofVerifier", [FIXTURE_PROVER_ADDRESS, fixtureCircuitTag(circuit)]);
  const callToken = (label: string, to: Address, data: Hex): void => {
    plan.push({ label, to, data, gas: CALL_GAS });
  };

  const emptyRoot = emptyTreeRoot();
  const token = deploy("deploy FixtureZErc20", "FixtureZErc20", [FIXTURE_TOKEN_NAME, FIXTURE_TOKEN_SYMBOL, deployer.address]);
  const hub = deploy("deploy Hub", "Hub", [deployer.address]);
  const proofVerifiers: Record<OnChainFixtureCircuit, Address> = {
    root: deployProofVerifier("root"),
    withdraw_single: deployProofVerifier("withdraw_single"),
    withdraw_local: deployProofVerifier("withdraw_local"),
    withdraw_global: deployProofVerifier("withdraw_global"),
  };
  const verifier = deploy("deploy Verifier", "Verifier", [
    token,
    hub,
    proofVerifiers.root,
    proofVerifiers.withdraw_single,
    proofVerifiers.withdraw_local,
    proofVerifiers.withdraw_global,
    emptyRoot,
    deployer.address,
  ]);
  const permitBurner = deploy("deploy PermitBurner", "PermitBurner", []);
  const feeSplitter = deploy("deploy FeeSplitter", "FeeSplitter", [accounts.payee.address, accounts.feeRecipient.address, feeBps]);
  const tokenCall = (functionName: "setMinter" | "setVerifier", account: Address): Hex =>
    encodeFunctionData({ abi: zerc20TokenAbi, functionName, args: [account] });
  const mintCall = (to: Address): Hex => encodeFunctionData({ abi: zerc20TokenAbi, functionName: "mint", args: [to, payerBalance] });
  callToken("setMinter", token, tokenCall("setMinter", deployer.address));
  callToken("setVerifier", token, tokenCall("setVerifier", verifier));
  callToken("mint payer", token, mintCall(accounts.payer.address));
  callToken("mint payer2", token, mintCall(accounts.payer2.address));
  // Appended last: the nonces, and so the addresses, of everything above stay what they always were.
  const usdc3009 = deploy("deploy FixtureUsdc3009", "FixtureUsdc3009", [FIXTURE_USDC3009_NAME, FIXTURE_USDC3009_SYMBOL, deployer.address]);
  const usdcMintCall = (to: Address): Hex =>
    encodeFunctionData({ abi: artifacts.FixtureUsdc3009.abi, functionName: "mint", args: [to, FIXTURE_USDC3009_PAYER_BALANCE] });
  callToken("mint payer fUSDC", usdc3009, usdcMintCall(accounts.payer.address));
  callToken("mint payer2 fUSDC", usdc3009, usdcMintCall(accounts.payer2.address));

  // Constructors only store addresses, so creations can be estimated before anything exists; calls into the
  // not-yet-deployed token cannot, and carry a fixed limit instead.
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
  const blockNumbers = await Promise.all(submitted.map(({ step, hash }) => confirmStep(client, step, hash)));

  return {
    chainId,
    deployer: deployer.address,
    token,
    hub,
    proofVerifiers,
    verifier,
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

async function confirmStep(client: PublicClient, step: Step, hash: Hash): Promise<bigint> {
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new DeploymentTransactionFailedError(step.label, hash);
  const { expectedAddress } = step;
  if (expectedAddress !== undefined && receipt.contractAddress?.toLowerCase() !== expectedAddress.toLowerCase()) {
    throw new DeploymentAddressMismatchError(step.label, expectedAddress, receipt.contractAddress);
  }
  return receipt.blockNumber;
}
