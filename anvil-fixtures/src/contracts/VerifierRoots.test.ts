/**
 * Transfer roots on both verifier versions: reservation of the token's hash chain, root proofs in the published
 * `uint256[32]` encoding (old root must be proved, new hash chain must be reserved), a conflicting root pausing
 * the verifier, and who may prove (anyone under v1, the allow-list under v2).
 */
import { describe, expect, it } from "vitest";
import { parseEventLogs } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { type ProtocolVersion, zerc20TokenAbiV1, zerc20VerifierAbi, zerc20VerifierAbiV2 } from "@svc/scheme";
import { FIXTURE_HUB_EID } from "../deploy/deployContracts.js";
import { fixtureVerifierAdminAbi, fixtureVerifierV2AdminAbi } from "./fixtureAdminAbis.js";
import { expectRevert } from "./testing/expectRevert.js";
import { signRootProof, type RootProofInputs } from "./testing/fixtureProofs.js";
import { useLocalChain, type LocalChain } from "./testing/useLocalChain.js";
import { proveTransferRoot, reserve, TEST_ROOT, verifierContract } from "./testing/verifierActions.js";

const ONE_TOKEN = 10n ** 18n;

/** Valid inputs extending the deployed state (index 0, empty root) to a fresh reservation, with overrides. */
async function firstRootInputs(
  chain: LocalChain,
  overrides: { old?: Partial<RootProofInputs["old"]>; new?: Partial<RootProofInputs["new"]> } = {},
): Promise<RootProofInputs> {
  const reserved = await reserve(chain);
  return {
    old: { index: 0n, hashChain: 0n, root: chain.deployment.emptyRoot, ...overrides.old },
    new: { index: reserved.index, hashChain: reserved.hashChain, root: TEST_ROOT, ...overrides.new },
  };
}

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("verifier %s: transfer roots", (version) => {
  const chain = useLocalChain({ protocol: version });
  const read = <Name extends "latestProvedIndex" | "latestReservedIndex" | "hubEid" | "paused">(functionName: Name) =>
    chain().publicClient.readContract({ ...verifierContract(chain()), functionName });
  const provedRoot = (index: bigint) => chain().publicClient.readContract({ ...verifierContract(chain()), functionName: "provedTransferRoots", args: [index] });

  it("starts with the empty tree root at index 0, nothing reserved, and is wired to token, hub and hub EID", async () => {
    const { deployment, publicClient } = chain();
    // The published empty root of the height-40 tree (zerc20-real.md §2), and the one the deployment passed in.
    expect(await provedRoot(0n)).toBe(8687547638004116013653730449839507042090717944911454416140763808366589487233n);
    expect(await provedRoot(0n)).toBe(deployment.emptyRoot);
    expect(await read("latestProvedIndex")).toBe(0n);
    expect(await read("latestReservedIndex")).toBe(0n);
    expect(await read("hubEid")).toBe(FIXTURE_HUB_EID);
    const admin = { address: deployment.verifier, abi: fixtureVerifierAdminAbi } as const;
    expect(await publicClient.readContract({ ...admin, functionName: "token" })).toBe(deployment.token);
    expect(await publicClient.readContract({ ...admin, functionName: "hub" })).toBe(deployment.hub);
  });

  it("reserveHashChain returns and stores the token's current index and hash chain", async () => {
    const current = chain();
    const { publicClient, deployment, accounts } = current;
    const token = { address: deployment.token, abi: zerc20TokenAbiV1 } as const;
    const [index, hashChain] = await Promise.all([
      publicClient.readContract({ ...token, functionName: "index" }),
      publicClient.readContract({ ...token, functionName: "hashChain" }),
    ]);
    const { result } = await publicClient.simulateContract({ ...verifierContract(current), functionName: "reserveHashChain", account: accounts.payer.address });
    expect(result).toEqual([index, hashChain]);
    expect(await reserve(current)).toEqual({ index, hashChain });
    expect(await read("latestReservedIndex")).toBe(index);
  });

  it("records a proved root at the new index with TransferRootProved, and the next proof continues from it", async () => {
    const current = chain();
    const { deployment, accounts, wallet, mined } = current;
    const inputs = await firstRootInputs(current);
    const receipt = await mined(proveTransferRoot(current, await signRootProof(inputs)));
    const [proved] = parseEventLogs({ abi: zerc20VerifierAbi, logs: receipt.logs, eventName: "TransferRootProved" });
    expect(proved?.args).toEqual({ index: inputs.new.index, root: TEST_ROOT });
    expect(await provedRoot(inputs.new.index)).toBe(TEST_ROOT);
    expect(await read("latestProvedIndex")).toBe(inputs.new.index);

    await mined(
      wallet("payer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbiV1,
        functionName: "transfer",
        args: [accounts.treasury.address, ONE_TOKEN],
      }),
    );
    const next = await reserve(current);
    const secondRoot = TEST_ROOT + 1n;
    await mined(proveTransferRoot(current, await signRootProof({ old: inputs.new, new: { index: next.index, hashChain: next.hashChain, root: secondRoot } })));
    expect(await provedRoot(next.index)).toBe(secondRoot);
    expect(await read("latestProvedIndex")).toBe(next.index);
  });

  it("refuses an old index without a proved root with ExpectedRootZero(oldIndex)", async () => {
    const current = chain();
    const failure = await expectRevert(
      proveTransferRoot(current, await signRootProof(await firstRootInputs(current, { old: { index: 1n } }))),
      "ExpectedRootZero",
    );
    expect(failure.args).toEqual([1n]);
  });

  it("refuses an old root other than the proved one with TransferRootMismatch(proved, given)", async () => {
    const current = chain();
    const failure = await expectRevert(
      proveTransferRoot(current, await signRootProof(await firstRootInputs(current, { old: { root: 777n } }))),
      "TransferRootMismatch",
    );
    expect(failure.args).toEqual([current.deployment.emptyRoot, 777n]);
  });

  it("refuses a new hash chain other than the reserved one, or an unreserved index, with ReservedHashChainMismatch", async () => {
    const current = chain();
    const wrongChain = await firstRootInputs(current, { new: { hashChain: 12345n } });
    const failure = await expectRevert(proveTransferRoot(current, await signRootProof(wrongChain)), "ReservedHashChainMismatch");
    const reserved = await current.publicClient.readContract({
      ...verifierContract(current),
      functionName: "reservedHashChains",
      args: [wrongChain.new.index],
    });
    expect(failure.args).toEqual([wrongChain.new.index, reserved, 12345n]);
    const unreserved = await firstRootInputs(current, { new: { index: 1n } });
    const second = await expectRevert(proveTransferRoot(current, await signRootProof(unreserved)), "ReservedHashChainMismatch");
    expect(second.args).toEqual([1n, 0n, unreserved.new.hashChain]);
  });

  it("refuses a root proof signed by another key, for another circuit or chain, or with changed words, with InvalidProof()", async () => {
    const current = chain();
    const inputs = await firstRootInputs(current);
    await expectRevert(proveTransferRoot(current, await signRootProof(inputs, { privateKey: generatePrivateKey() })), "InvalidProof");
    await expectRevert(proveTransferRoot(current, await signRootProof(inputs, { circuit: "withdraw_local" })), "InvalidProof");
    await expectRevert(proveTransferRoot(current, await signRootProof(inputs, { chainId: 1n })), "InvalidProof");
    await expectRevert(proveTransferRoot(current, await signRootProof({ ...inputs, steps: 99n }, { circuit: "ivc_root" })), "InvalidProof");
    expect(await read("latestProvedIndex")).toBe(0n);
  });

  it("reverts on proof bytes that are not 32 words", async () => {
    const current = chain();
    await reserve(current);
    await expect(proveTransferRoot(current, "0xdeadbeef")).rejects.toThrow();
  });

  it("pauses instead of overwriting when a second valid proof brings another root for a proved index", async () => {
    const current = chain();
    const inputs = await firstRootInputs(current);
    await current.mined(proveTransferRoot(current, await signRootProof(inputs)));
    const receipt = await current.mined(proveTransferRoot(current, await signRootProof({ ...inputs, new: { ...inputs.new, root: TEST_ROOT + 5n } })));
    expect(parseEventLogs({ abi: fixtureVerifierAdminAbi, logs: receipt.logs, eventName: "Paused" })).toHaveLength(1);
    expect(await read("paused")).toBe(true);
    expect(await provedRoot(inputs.new.index)).toBe(TEST_ROOT);
  });
});

describe("verifier zerc20-v1: root provers", () => {
  const chain = useLocalChain({ protocol: "zerc20-v1" });

  it("lets anyone prove a root", async () => {
    const current = chain();
    const inputs = await firstRootInputs(current);
    await current.mined(proveTransferRoot(current, await signRootProof(inputs), "payer2"));
    expect(await current.publicClient.readContract({ ...verifierContract(current), functionName: "latestProvedIndex" })).toBe(inputs.new.index);
  });
});

describe("verifier zerc20-v2: root provers", () => {
  const chain = useLocalChain({ protocol: "zerc20-v2" });
  const isAllowedProver = (address: `0x${string}`) =>
    chain().publicClient.readContract({ address: chain().deployment.verifier, abi: zerc20VerifierAbiV2, functionName: "isAllowedProver", args: [address] });

  it("allow-lists the deployment's rootProver only, and refuses anyone else with UnauthorizedProver(caller) before reading the proof", async () => {
    const current = chain();
    const { accounts } = current;
    expect(await isAllowedProver(accounts.rootProver.address)).toBe(true);
    expect(await isAllowedProver(accounts.payer2.address)).toBe(false);
    const proof = await signRootProof(await firstRootInputs(current));
    const failure = await expectRevert(proveTransferRoot(current, proof, "payer2"), "UnauthorizedProver");
    expect(failure.args).toEqual([accounts.payer2.address]);
    await expectRevert(proveTransferRoot(current, "0xdeadbeef", "payer2"), "UnauthorizedProver");
    await current.mined(proveTransferRoot(current, proof));
  });

  it("lets only the owner change the allow-list", async () => {
    const current = chain();
    const { deployment, accounts, wallet, mined } = current;
    const setAllowed = (signer: "payer" | "deployer", allowed: boolean) =>
      wallet(signer).writeContract({
        address: deployment.verifier,
        abi: fixtureVerifierV2AdminAbi,
        functionName: "setAllowedProver",
        args: [accounts.payer2.address, allowed],
      });
    await expectRevert(setAllowed("payer", true), "OwnableUnauthorizedAccount");
    await mined(setAllowed("deployer", true));
    expect(await isAllowedProver(accounts.payer2.address)).toBe(true);
    await mined(proveTransferRoot(current, await signRootProof(await firstRootInputs(current)), "payer2"));
    await mined(setAllowed("deployer", false));
    expect(await isAllowedProver(accounts.payer2.address)).toBe(false);
  });
});
