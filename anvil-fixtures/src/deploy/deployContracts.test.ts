import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicClient, createTestClient, getContractAddress, http, parseUnits, type Address } from "viem";
import { fixtureCircuitTag, type ProtocolVersion, zerc20TokenAbiV1, zerc20VerifierAbi, zerc20VerifierAbiV2 } from "@svc/scheme";
import { devAccounts, FIXTURE_PROVER_ADDRESS } from "../accounts/devAccounts.js";
import { startAnvil, type StartAnvilReturnType } from "../anvil/startAnvil.js";
import { loadArtifacts } from "../compile/loadArtifacts.js";
import { fixtureProofSignerAbi } from "../contracts/deciderVerifierAbis.js";
import { fixtureHubAbi, fixtureVerifierAdminAbi } from "../contracts/fixtureAdminAbis.js";
import { deployContracts, FIXTURE_HUB_EID, type Deployment } from "./deployContracts.js";
import { InvalidDeploymentParameterError } from "./errors.js";

const accounts = devAccounts();

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("deployContracts %s", (protocol) => {
  let anvil: StartAnvilReturnType;
  let deployment: Deployment;

  beforeAll(async () => {
    await loadArtifacts();
    anvil = await startAnvil();
    deployment = await deployContracts({ rpcUrl: anvil.rpcUrl, accounts, protocol });
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  const client = () => createPublicClient({ transport: http(anvil.rpcUrl) });
  const tokenBalance = (token: Address, account: Address) =>
    client().readContract({ address: token, abi: zerc20TokenAbiV1, functionName: "balanceOf", args: [account] });

  it("names its version and puts code at every address it returns", async () => {
    expect(deployment.protocol).toBe(protocol);
    expect(deployment.decimals).toBe(18);
    expect(deployment.hubEid).toBe(FIXTURE_HUB_EID);
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

  it("wires the token's minter and verifier, hub and verifier to each other, and funds both payers", async () => {
    const read = <Name extends "minter" | "verifier">(functionName: Name) =>
      client().readContract({ address: deployment.token, abi: zerc20TokenAbiV1, functionName });
    expect(await read("minter")).toBe(accounts.deployer.address);
    expect(await read("verifier")).toBe(deployment.verifier);
    expect(await client().readContract({ address: deployment.hub, abi: fixtureHubAbi, functionName: "verifier" })).toBe(deployment.verifier);
    expect(await client().readContract({ address: deployment.verifier, abi: fixtureVerifierAdminAbi, functionName: "hub" })).toBe(deployment.hub);
    expect(deployment.payerBalance).toBe(parseUnits("1000000", 18));
    expect(await tokenBalance(deployment.token, accounts.payer.address)).toBe(deployment.payerBalance);
    expect(await tokenBalance(deployment.token, accounts.payer2.address)).toBe(deployment.payerBalance);
    // The EIP-3009 fixture token (benchmarks) funds both payers too; its ERC-20 balanceOf reads the same way.
    expect(await tokenBalance(deployment.usdc3009, accounts.payer.address)).toBe(parseUnits("1000000", 6));
    expect(await tokenBalance(deployment.usdc3009, accounts.payer2.address)).toBe(parseUnits("1000000", 6));
  });

  it("deploys the EIP-3009 fixture token after everything else, so earlier addresses never move", () => {
    // On a fresh chain: token, hub, four proof verifiers, verifier, PermitBurner, FeeSplitter at deployer nonces
    // 0..8, then four wiring and funding calls (and v2's allow-listing), and only then the EIP-3009 token.
    const creationNonce = (address: Address): number | undefined =>
      Array.from({ length: 32 }, (_, nonce) => nonce).find(
        (nonce) => getContractAddress({ from: accounts.deployer.address, nonce: BigInt(nonce) }) === address,
      );
    expect([deployment.token, deployment.hub, deployment.verifier, deployment.permitBurner, deployment.feeSplitter].map(creationNonce)).toEqual([
      0, 1, 6, 7, 8,
    ]);
    expect(creationNonce(deployment.usdc3009)).toBe(protocol === "zerc20-v1" ? 13 : 14);
  });

  it("deploys one fixture proof verifier per circuit and stores the empty root in the verifier", async () => {
    for (const circuit of ["root", "withdraw_single", "withdraw_local", "withdraw_global"] as const) {
      const address = deployment.proofVerifiers[circuit];
      const tag = await client().readContract({ address, abi: fixtureProofSignerAbi, functionName: "circuit" });
      const signer = await client().readContract({ address, abi: fixtureProofSignerAbi, functionName: "signer" });
      expect(tag).toBe(fixtureCircuitTag(circuit));
      expect(signer).toBe(FIXTURE_PROVER_ADDRESS);
    }
    const emptyRoot = await client().readContract({ address: deployment.verifier, abi: zerc20VerifierAbi, functionName: "provedTransferRoots", args: [0n] });
    // The published empty root of the height-40 tree (zerc20-real.md §2).
    expect(emptyRoot).toBe(8687547638004116013653730449839507042090717944911454416140763808366589487233n);
    expect(deployment.emptyRoot).toBe(emptyRoot);
  });

  it("names the root prover, which a v2 verifier allow-lists", async () => {
    expect(deployment.rootProver).toBe(accounts.rootProver.address);
    if (protocol === "zerc20-v2") {
      const allowed = await client().readContract({
        address: deployment.verifier,
        abi: zerc20VerifierAbiV2,
        functionName: "isAllowedProver",
        args: [accounts.rootProver.address],
      });
      expect(allowed).toBe(true);
    }
  });

  it("deploys again on a used chain, from the deployer's current nonce, with custom fee and balances", async () => {
    const again = await deployContracts({ rpcUrl: anvil.rpcUrl, accounts, protocol, feeBps: 250, payerBalance: 5n });
    expect(again.token).not.toBe(deployment.token);
    expect(again.deployBlockNumber).toBeGreaterThan(deployment.readyBlockNumber);
    expect(again.feeSplit.bps).toBe(250);
    expect(await tokenBalance(again.token, accounts.payer2.address)).toBe(5n);
  });

  it("names the step whose transaction is not mined by the deadline, and says the node still holds it", async () => {
    const stalled = await startAnvil();
    try {
      await createTestClient({ mode: "anvil", transport: http(stalled.rpcUrl) }).setAutomine(false);
      await expect(deployContracts({ rpcUrl: stalled.rpcUrl, accounts, protocol, receiptDeadlineMs: 300 })).rejects.toMatchObject({
        name: "DeploymentTransactionNotMinedError",
        message: expect.stringContaining("still pending on the node"),
      });
    } finally {
      await stalled.stop();
    }
  });

  it("refuses an out-of-range fee before sending anything", async () => {
    await expect(deployContracts({ rpcUrl: anvil.rpcUrl, accounts, protocol, feeBps: 0 })).rejects.toBeInstanceOf(InvalidDeploymentParameterError);
  });
});

describe("deployContracts options", () => {
  it("deploys zerc20-v2 by default, and refuses decimals other than 18 for a zerc20-v1 token before sending anything", async () => {
    const anvil = await startAnvil();
    try {
      const deployment = await deployContracts({ rpcUrl: anvil.rpcUrl, accounts, decimals: 6 });
      expect(deployment.protocol).toBe("zerc20-v2");
      expect(deployment.payerBalance).toBe(parseUnits("1000000", 6));
      const refused = deployContracts({ rpcUrl: anvil.rpcUrl, accounts, protocol: "zerc20-v1", decimals: 6 });
      await expect(refused).rejects.toBeInstanceOf(InvalidDeploymentParameterError);
      await expect(refused).rejects.toMatchObject({ parameter: "decimals" });
      await expect(deployContracts({ rpcUrl: anvil.rpcUrl, accounts, decimals: 37 })).rejects.toBeInstanceOf(InvalidDeploymentParameterError);
    } finally {
      await anvil.stop();
    }
  });
});
