/**
 * One anvil chain with the full deployment per test file, rolled back to the freshly deployed state before
 * every test with `evm_snapshot` / `evm_revert`: tests stay independent without paying for a new chain each.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  isHex,
  type Hash,
  type Hex,
  type HttpTransport,
  type PrivateKeyAccount,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { type Zerc20Protocol, zerc20Protocol } from "@svc/scheme";
import { devAccounts, type DevAccount, type DevAccountName } from "../../accounts/devAccounts.js";
import { startAnvil, type StartAnvilReturnType } from "../../anvil/startAnvil.js";
import { loadArtifacts, type LoadArtifactsReturnType } from "../../compile/loadArtifacts.js";
import { deployContracts, type DeployContractsParameters, type Deployment } from "../../deploy/deployContracts.js";

/** A wallet client bound to one local key on the anvil chain. */
export type LocalWalletClient = WalletClient<HttpTransport, typeof foundry, PrivateKeyAccount>;

/** A running, deployed local chain and the clients to talk to it. */
export type LocalChain = {
  /** The anvil node. */
  anvil: StartAnvilReturnType;
  /** Addresses of everything deployed. */
  deployment: Deployment;
  /** The protocol version deployed, with its ABIs and formulas. */
  protocol: Zerc20Protocol;
  /** Compiled artifacts (for deploying extra instances and decoding foreign errors). */
  artifacts: LoadArtifactsReturnType;
  /** The named dev accounts. */
  accounts: Record<DevAccountName, DevAccount>;
  /** Reads and receipts. */
  publicClient: PublicClient<HttpTransport, typeof foundry>;
  /** anvil cheat codes (snapshots, time). */
  testClient: TestClient<"anvil", HttpTransport, typeof foundry>;
  /** A wallet for a named dev account or any private key. */
  wallet: (signer: DevAccountName | Hex) => LocalWalletClient;
  /** Waits for the transaction and fails the test unless it succeeded. */
  mined: (hash: Promise<Hash>) => Promise<TransactionReceipt>;
  /** Stops anvil. */
  stop: () => Promise<void>;
};

/** Options of {@link startLocalChain}: deployment options without the RPC URL. */
export type StartLocalChainParameters = Omit<DeployContractsParameters, "rpcUrl">;

/** Starts anvil, deploys everything and returns clients bound to it. */
export async function startLocalChain(parameters: StartLocalChainParameters = {}): Promise<LocalChain> {
  const [anvil, artifacts] = await Promise.all([startAnvil(), loadArtifacts()]);
  try {
    const accounts = parameters.accounts ?? devAccounts();
    const deployment = await deployContracts({ ...parameters, accounts, artifacts, rpcUrl: anvil.rpcUrl });
    const transport = http(anvil.rpcUrl);
    const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 20 });
    const testClient = createTestClient({ chain: foundry, mode: "anvil", transport });
    const wallet = (signer: DevAccountName | Hex): LocalWalletClient => {
      const privateKey: Hex = isHex(signer) ? signer : accounts[signer].privateKey;
      return createWalletClient({ account: privateKeyToAccount(privateKey), chain: foundry, transport });
    };
    const mined = async (hash: Promise<Hash>): Promise<TransactionReceipt> => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash });
      expect(receipt.status).toBe("success");
      return receipt;
    };
    const protocol = zerc20Protocol(deployment.protocol);
    return { anvil, deployment, protocol, artifacts, accounts, publicClient, testClient, wallet, mined, stop: anvil.stop };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/**
 * Registers the per-file lifecycle: one chain for the file, reverted to the deployed state before each test.
 * Returns a getter, because the chain only exists once `beforeAll` has run.
 */
export function useLocalChain(parameters: StartLocalChainParameters = {}): () => LocalChain {
  let chain: LocalChain | undefined;
  let snapshot: Hex | undefined;
  const current = (): LocalChain => {
    if (chain === undefined) throw new TypeError("the local chain is not started yet (use it inside a test)");
    return chain;
  };
  beforeAll(async () => {
    chain = await startLocalChain(parameters);
  });
  afterAll(async () => {
    await chain?.stop();
  });
  beforeEach(async () => {
    snapshot = await current().testClient.snapshot();
  });
  afterEach(async () => {
    if (snapshot !== undefined) await current().testClient.revert({ id: snapshot });
  });
  return current;
}
