import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, getContractAddress, http, parseUnits, type Address } from "viem";
import { fixtureCircuitTag, fixtureProofVerifierAbi, zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import { devAccounts, FIXTURE_PROVER_ADDRESS } from "../accounts/devAccounts.js";
import { startAnvil, type StartAnvilReturnType } from "../anvil/startAnvil.js";
import { loadArtifacts } from "../compile/loadArtifacts.js";
import { deployContracts, type Deployment } from "./deployContracts.js";
import { InvalidDeploymentParameterError } from "./errors.js";

let anvil: StartAnvilReturnType;
let deployment: Deployment;
const accounts = devAccounts();

beforeAll(async () => {
  await loadArtifacts();
  anvil = await startAnvil();
  deployment = await deployContracts({ rpcUrl: anvil.rpcUrl, accounts });
});

afterAll(async () => {
  await anvil.stop();
});

function client() {
  return createPublicClient({ transport: http(anvil.rpcUrl) });
}

function tokenBalance(token: Address, account: Address): Promise<bigint> {
  return client().readContract({ address: token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [account] });
}

describe("deployContracts", () => {
  it("puts code at every address it returns", async () => {
    const addresses = [
      deployment.token,
      deployment.hub,
      ...Object.values(deployment.proofVerifiers),
      deployment.verifier,
      deployment.permitBurner,
      deployment.feeSplitter,
      deployment.usdc3009,
    ];
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const address of addresses) {
      expect(await client().getCode({ address }), address).toMatch(/^0x[0-9a-f]+$/);
    }
    expect(deployment.deployBlockNumber).toBeGreaterThan(0n);
    expect(deployment.readyBlockNumber).toBeGreaterThanOrEqual(deployment.deployBlockNumber);
  });

  it("wires the token's minter and verifier and funds both payers with one million tokens", async () => {
    const read = <Name extends "minter" | "verifier">(functionName: Name) =>
      client().readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName });
    expect(await read("minter")).toBe(accounts.deployer.address);
    expect(await read("verifier")).toBe(deployment.verifier);
    expect(deployment.payerBalance).toBe(parseUnits("1000000", 18));
    expect(await tokenBalance(deployment.token, accounts.payer.address)).toBe(deployment.payerBalance);
    expect(await tokenBalance(deployment.token, accounts.payer2.address)).toBe(deployment.payerBalance);
    // The EIP-3009 fixture token (benchmarks) funds both payers too; its ERC-20 balanceOf reads the same way.
    expect(await tokenBalance(deployment.usdc3009, accounts.payer.address)).toBe(parseUnits("1000000", 6));
    expect(await tokenBalance(deployment.usdc3009, accounts.payer2.address)).toBe(parseUnits("1000000", 6));
  });

  it("deploys the EIP-3009 fixture token after everything else, so earlier addresses never move", () => {
    // On a fresh chain: token, hub, four proof verifiers, verifier, PermitBurner, FeeSplitter at deployer nonces
    // 0..8, then four wiring and funding calls, and only then (nonce 13) the EIP-3009 token and its two mints.
    const creationNonce = (address: Address): number | undefined =>
      Array.from({ length: 32 }, (_, nonce) => nonce).find(
        (nonce) => getContractAddress({ from: accounts.deployer.address, nonce: BigInt(nonce) }) === address,
      );
    expect([deployment.token, deployment.hub, deployment.verifier, deployment.permitBurner, deployment.feeSplitter].map(creationNonce)).toEqual([
      0, 1, 6, 7, 8,
    ]);
    expect(creationNonce(deployment.usdc3009)).toBe(13);
  });

  it("deploys one fixture proof verifier per circuit and stores the empty root in the verifier", async () => {
    for (const circuit of ["root", "withdraw_single", "withdraw_local", "withdraw_global"] as const) {
      const address = deployment.proofVerifiers[circuit];
      const tag = await client().readContract({ address, abi: fixtureProofVerifierAbi, functionName: "circuit" });
      const signer = await client().readContract({ address, abi: fixtureProofVerifierAbi, functionName: "signer" });
      expect(tag).toBe(fixtureCircuitTag(circuit));
      expect(signer).toBe(FIXTURE_PROVER_ADDRESS);
    }
    const emptyRoot = await client().readContract({
      address: deployment.verifier,
      abi: zerc20VerifierAbi,
      functionName: "provedTransferRoots",
      args: [0n],
    });
    expect(emptyRoot).toBe(deployment.emptyRoot);
  });

  it("deploys again on a used chain, from the deployer's current nonce, with custom fee and balances", async () => {
    const again = await deployContracts({ rpcUrl: anvil.rpcUrl, accounts, feeBps: 250, payerBalance: 5n });
    expect(again.token).not.toBe(deployment.token);
    expect(again.deployBlockNumber).toBeGreaterThan(deployment.readyBlockNumber);
    expect(again.feeSplit.bps).toBe(250);
    expect(await tokenBalance(again.token, accounts.payer2.address)).toBe(5n);
  });

  it("refuses an out-of-range fee before sending anything", async () => {
    await expect(deployContracts({ rpcUrl: anvil.rpcUrl, accounts, feeBps: 0 })).rejects.toBeInstanceOf(InvalidDeploymentParameterError);
  });
});
