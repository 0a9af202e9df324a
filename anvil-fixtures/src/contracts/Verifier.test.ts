import { describe, expect, it } from "vitest";
import { keccak256, parseEventLogs, toHex, type Address, type Hash, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { zerc20HubAbi, zerc20TokenAbi, zerc20VerifierAbi } from "@svc/scheme";
import { expectRevert } from "./testing/expectRevert.js";
import { expectedRecipientHash } from "./testing/expectedRecipientHash.js";
import { signRootProof, signTeleportProof, type RootProofInputs } from "./testing/fixtureProofs.js";
import { buildGeneralRecipient, type TestGeneralRecipient } from "./testing/generalRecipient.js";
import { useLocalChain } from "./testing/useLocalChain.js";

const chain = useLocalChain();

/** A stand-in transfer root (any non-zero field element; the fixture proof vouches for it). */
const NEW_ROOT = BigInt(keccak256(toHex("transfer root 1"))) >> 8n;
const ONE_TOKEN = 10n ** 18n;

function verifierRead<Name extends "latestProvedIndex" | "reservedIndex" | "reservedHashChain" | "token" | "hub" | "paused">(functionName: Name) {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.verifier, abi: zerc20VerifierAbi, functionName });
}

function provedRoot(index: bigint): Promise<bigint> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({
    address: deployment.verifier,
    abi: zerc20VerifierAbi,
    functionName: "provedTransferRoots",
    args: [index],
  });
}

function balanceOf(account: Address): Promise<bigint> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [account] });
}

async function reserve(): Promise<{ index: bigint; hashChain: bigint }> {
  const { deployment, wallet, mined } = chain();
  // Anyone may reserve: the relayer does, as the indexer's root prover would.
  const receipt = await mined(wallet("relayer").writeContract({ address: deployment.verifier, abi: zerc20VerifierAbi, functionName: "reserveHashChain" }));
  const [reserved] = parseEventLogs({ abi: zerc20VerifierAbi, logs: receipt.logs, eventName: "HashChainReserved" });
  if (reserved === undefined) return expect.fail("no HashChainReserved event");
  return { index: reserved.args.index, hashChain: reserved.args.hashChain };
}

function proveTransferRoot(proof: Hex): Promise<Hash> {
  const { deployment, wallet } = chain();
  return wallet("rootProver").writeContract({
    address: deployment.verifier,
    abi: zerc20VerifierAbi,
    functionName: "proveTransferRoot",
    args: [proof],
  });
}

/** Valid inputs extending the deployed state (index 0, empty root) to the reservation. */
async function firstRootInputs(overrides: Partial<RootProofInputs> = {}): Promise<RootProofInputs> {
  const reserved = await reserve();
  return {
    oldIndex: 0n,
    newIndex: reserved.index,
    oldHashChain: 0n,
    newHashChain: reserved.hashChain,
    oldRoot: chain().deployment.emptyRoot,
    newRoot: NEW_ROOT,
    ...overrides,
  };
}

/** Reserves and proves NEW_ROOT at the current token index; returns that index (the root hint). */
async function proveFirstRoot(): Promise<bigint> {
  const inputs = await firstRootInputs();
  await chain().mined(proveTransferRoot(await signRootProof(inputs)));
  return inputs.newIndex;
}

type TeleportKind = "singleTeleport" | "teleport";

function submitTeleport(kind: TeleportKind, isGlobal: boolean, rootHint: bigint, gr: TestGeneralRecipient, proof: Hex): Promise<Hash> {
  const { deployment, wallet } = chain();
  return wallet("relayer").writeContract({
    address: deployment.verifier,
    abi: zerc20VerifierAbi,
    functionName: kind,
    args: [isGlobal, rootHint, gr, proof],
  });
}

/** A valid single teleport of `value` (the proved total) to `gr` against NEW_ROOT at `rootHint`. */
async function singleTeleport(rootHint: bigint, gr: TestGeneralRecipient, value: bigint): Promise<Hash> {
  const proof = await signTeleportProof({ transferRoot: NEW_ROOT, recipientHash: expectedRecipientHash(gr), value });
  return submitTeleport("singleTeleport", false, rootHint, gr, proof);
}

describe("Verifier: transfer roots", () => {
  it("starts with the empty tree root at index 0 and is wired to the token and hub", async () => {
    const { deployment } = chain();
    expect(await provedRoot(0n)).toBe(deployment.emptyRoot);
    expect(await verifierRead("latestProvedIndex")).toBe(0n);
    expect(await verifierRead("token")).toBe(deployment.token);
    expect(await verifierRead("hub")).toBe(deployment.hub);
  });

  it("reserves the token's current index and hash chain", async () => {
    const { publicClient, deployment } = chain();
    const reserved = await reserve();
    const [index, hashChain] = await Promise.all([
      publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "index" }),
      publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "hashChain" }),
    ]);
    expect(reserved).toEqual({ index, hashChain });
    expect(await verifierRead("reservedIndex")).toBe(index);
    expect(await verifierRead("reservedHashChain")).toBe(hashChain);
  });

  it("records a proved root at the reserved index, and the next proof continues from it", async () => {
    const { deployment, accounts, wallet, mined } = chain();
    const inputs = await firstRootInputs();
    const receipt = await mined(proveTransferRoot(await signRootProof(inputs)));
    const [proved] = parseEventLogs({ abi: zerc20VerifierAbi, logs: receipt.logs, eventName: "TransferRootProved" });
    expect(proved?.args).toEqual({ index: inputs.newIndex, root: NEW_ROOT });
    expect(await provedRoot(inputs.newIndex)).toBe(NEW_ROOT);
    expect(await verifierRead("latestProvedIndex")).toBe(inputs.newIndex);

    await mined(
      wallet("payer").writeContract({
        address: deployment.token,
        abi: zerc20TokenAbi,
        functionName: "transfer",
        args: [accounts.treasury.address, ONE_TOKEN],
      }),
    );
    const next = await reserve();
    const secondRoot = NEW_ROOT + 1n;
    await mined(
      proveTransferRoot(
        await signRootProof({
          oldIndex: inputs.newIndex,
          newIndex: next.index,
          oldHashChain: inputs.newHashChain,
          newHashChain: next.hashChain,
          oldRoot: NEW_ROOT,
          newRoot: secondRoot,
        }),
      ),
    );
    expect(await provedRoot(next.index)).toBe(secondRoot);
    expect(await verifierRead("latestProvedIndex")).toBe(next.index);
  });

  it("refuses a root proof without a new reservation with NothingReserved", async () => {
    const proof = await signRootProof({
      oldIndex: 0n,
      newIndex: 2n,
      oldHashChain: 0n,
      newHashChain: 1n,
      oldRoot: chain().deployment.emptyRoot,
      newRoot: NEW_ROOT,
    });
    await expectRevert(proveTransferRoot(proof), "NothingReserved");
  });

  it("refuses a root proof that does not start at the latest proved index with StaleRootProof", async () => {
    const stale = await expectRevert(proveTransferRoot(await signRootProof(await firstRootInputs({ oldIndex: 1n }))), "StaleRootProof");
    expect(stale.args).toEqual([0n, 1n]);
  });

  it.each<[string, Partial<RootProofInputs>]>([
    ["a wrong new hash chain", { newHashChain: 12345n }],
    ["a wrong new index", { newIndex: 1n }],
    ["a wrong old root", { oldRoot: 777n }],
    ["a wrong old hash chain", { oldHashChain: 1n }],
  ])("refuses a root proof with %s with RootProofMismatch", async (_case, overrides) => {
    await expectRevert(proveTransferRoot(await signRootProof(await firstRootInputs(overrides))), "RootProofMismatch");
  });

  it("refuses a root proof signed by another key, or for another circuit, with InvalidProof", async () => {
    const inputs = await firstRootInputs();
    await expectRevert(proveTransferRoot(await signRootProof(inputs, { privateKey: generatePrivateKey() })), "InvalidProof");
    await expectRevert(proveTransferRoot(await signRootProof(inputs, { circuit: "withdraw_single" })), "InvalidProof");
    await expectRevert(proveTransferRoot(await signRootProof(inputs, { chainId: 1n })), "InvalidProof");
  });

  it("refuses undecodable proofs and wrong input counts with MalformedProof", async () => {
    await reserve();
    await expectRevert(proveTransferRoot("0xdeadbeef"), "MalformedProof");
    const threeInputs = await signTeleportProof({ transferRoot: 1n, recipientHash: "0x01", value: 1n }, { circuit: "root" });
    await expectRevert(proveTransferRoot(threeInputs), "MalformedProof");
  });
});

describe("Verifier: teleports", () => {
  it("computes recipientHashOf exactly as the TypeScript formula", async () => {
    const { publicClient, deployment, accounts } = chain();
    const recipients = [
      buildGeneralRecipient(accounts.treasury.address),
      buildGeneralRecipient(accounts.payee.address, "another tweak", { chainId: 1n }),
      buildGeneralRecipient(accounts.treasury.address, "max chain id", { chainId: 2n ** 64n - 1n }),
    ];
    for (const gr of recipients) {
      const onChain = await publicClient.readContract({
        address: deployment.verifier,
        abi: zerc20VerifierAbi,
        functionName: "recipientHashOf",
        args: [gr],
      });
      expect(onChain).toBe(expectedRecipientHash(gr));
      expect(onChain.slice(0, 4)).toBe("0x01");
    }
  });

  it("mints the proved value to the recipient and records the total", async () => {
    const { deployment, accounts, mined } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const recipientHash = expectedRecipientHash(gr);

    const receipt = await mined(singleTeleport(rootHint, gr, 3n * ONE_TOKEN));

    expect(await balanceOf(accounts.treasury.address)).toBe(3n * ONE_TOKEN);
    const [teleported] = parseEventLogs({ abi: zerc20VerifierAbi, logs: receipt.logs, eventName: "Teleported" });
    expect(teleported?.args).toEqual({ recipientHash, to: accounts.treasury.address, value: 3n * ONE_TOKEN });
    const [tokenTeleport] = parseEventLogs({ abi: zerc20TokenAbi, logs: receipt.logs, eventName: "Teleport" });
    expect(tokenTeleport?.args).toEqual({ to: accounts.treasury.address, value: 3n * ONE_TOKEN });
    const total = await chain().publicClient.readContract({
      address: deployment.verifier,
      abi: zerc20VerifierAbi,
      functionName: "totalTeleported",
      args: [recipientHash],
    });
    expect(total).toBe(3n * ONE_TOKEN);
  });

  it("mints only the difference for a larger proved total, and refuses an equal or smaller one", async () => {
    const { accounts, mined } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address);
    await mined(singleTeleport(rootHint, gr, 3n * ONE_TOKEN));

    await mined(singleTeleport(rootHint, gr, 5n * ONE_TOKEN));
    expect(await balanceOf(accounts.treasury.address)).toBe(5n * ONE_TOKEN);

    const equal = await expectRevert(singleTeleport(rootHint, gr, 5n * ONE_TOKEN), "NothingToTeleport");
    expect(equal.args).toEqual([5n * ONE_TOKEN, 5n * ONE_TOKEN]);
    await expectRevert(singleTeleport(rootHint, gr, 4n * ONE_TOKEN), "NothingToTeleport");
    expect(await balanceOf(accounts.treasury.address)).toBe(5n * ONE_TOKEN);
  });

  it("refuses a proof over another root, or a hint without a root, with UnknownRoot", async () => {
    const { accounts } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const recipientHash = expectedRecipientHash(gr);
    const otherRoot = await signTeleportProof({ transferRoot: NEW_ROOT + 1n, recipientHash, value: ONE_TOKEN });
    const unknown = await expectRevert(submitTeleport("singleTeleport", false, rootHint, gr, otherRoot), "UnknownRoot");
    expect(unknown.args).toEqual([rootHint]);
    await expectRevert(singleTeleport(rootHint + 1n, gr, ONE_TOKEN), "UnknownRoot");
  });

  it("refuses a proof for another recipient hash with RecipientHashMismatch", async () => {
    const { accounts } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const otherHash = expectedRecipientHash(buildGeneralRecipient(accounts.treasury.address, "other tweak"));
    const proof = await signTeleportProof({ transferRoot: NEW_ROOT, recipientHash: otherHash, value: ONE_TOKEN });
    const mismatch = await expectRevert(submitTeleport("singleTeleport", false, rootHint, gr, proof), "RecipientHashMismatch");
    expect(mismatch.args).toEqual([expectedRecipientHash(gr), otherHash]);
  });

  it("refuses a recipient on another chain with WrongChain", async () => {
    const { accounts } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address, "tweak-1", { chainId: 1n });
    const wrongChain = await expectRevert(singleTeleport(rootHint, gr, ONE_TOKEN), "WrongChain");
    expect(wrongChain.args).toEqual([31337n, 1n]);
  });

  it("refuses a proof signed by another key, or for the batch circuit, with InvalidProof", async () => {
    const { accounts } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const inputs = { transferRoot: NEW_ROOT, recipientHash: expectedRecipientHash(gr), value: ONE_TOKEN };
    const otherKey = await signTeleportProof(inputs, { privateKey: generatePrivateKey() });
    await expectRevert(submitTeleport("singleTeleport", false, rootHint, gr, otherKey), "InvalidProof");
    const batchProof = await signTeleportProof(inputs, { circuit: "withdraw_local" });
    await expectRevert(submitTeleport("singleTeleport", false, rootHint, gr, batchProof), "InvalidProof");
    expect(await balanceOf(accounts.treasury.address)).toBe(0n);
  });

  it("takes batch proofs on teleport(...) with the withdraw_local circuit, not withdraw_single", async () => {
    const { accounts, mined } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const inputs = { transferRoot: NEW_ROOT, recipientHash: expectedRecipientHash(gr), value: 2n * ONE_TOKEN };
    const singleProof = await signTeleportProof(inputs);
    await expectRevert(submitTeleport("teleport", false, rootHint, gr, singleProof), "InvalidProof");
    await mined(submitTeleport("teleport", false, rootHint, gr, await signTeleportProof(inputs, { circuit: "withdraw_local" })));
    expect(await balanceOf(accounts.treasury.address)).toBe(2n * ONE_TOKEN);
  });

  it("reads global roots from the hub for the global path", async () => {
    const { deployment, accounts, publicClient, wallet, mined } = chain();
    const globalRoot = NEW_ROOT + 99n;
    await expectRevert(
      wallet("payer").writeContract({
        address: deployment.hub,
        abi: zerc20HubAbi,
        functionName: "publishGlobalRoot",
        args: [1n, globalRoot],
      }),
      "OwnableUnauthorizedAccount",
    );
    await mined(
      wallet("deployer").writeContract({
        address: deployment.hub,
        abi: zerc20HubAbi,
        functionName: "publishGlobalRoot",
        args: [1n, globalRoot],
      }),
    );
    expect(await publicClient.readContract({ address: deployment.hub, abi: zerc20HubAbi, functionName: "latestGlobalIndex" })).toBe(1n);

    const gr = buildGeneralRecipient(accounts.treasury.address);
    const inputs = { transferRoot: globalRoot, recipientHash: expectedRecipientHash(gr), value: ONE_TOKEN };
    await mined(submitTeleport("singleTeleport", true, 1n, gr, await signTeleportProof(inputs)));
    await mined(submitTeleport("teleport", true, 1n, gr, await signTeleportProof({ ...inputs, value: 3n * ONE_TOKEN }, { circuit: "withdraw_global" })));
    expect(await balanceOf(accounts.treasury.address)).toBe(3n * ONE_TOKEN);
    // The local proved roots are a separate namespace: index 1 has no local root.
    await expectRevert(submitTeleport("singleTeleport", false, 1n, gr, await signTeleportProof({ ...inputs, value: 4n * ONE_TOKEN })), "UnknownRoot");
  });

  it("refuses teleports while paused and lets only the owner pause", async () => {
    const { deployment, accounts, wallet, mined } = chain();
    const rootHint = await proveFirstRoot();
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const pause = (signer: "payer" | "deployer", functionName: "pause" | "unpause") =>
      wallet(signer).writeContract({ address: deployment.verifier, abi: zerc20VerifierAbi, functionName });

    await expectRevert(pause("payer", "pause"), "OwnableUnauthorizedAccount");
    await mined(pause("deployer", "pause"));
    expect(await verifierRead("paused")).toBe(true);
    await expectRevert(singleTeleport(rootHint, gr, ONE_TOKEN), "EnforcedPause");

    await mined(pause("deployer", "unpause"));
    await mined(singleTeleport(rootHint, gr, ONE_TOKEN));
    expect(await balanceOf(accounts.treasury.address)).toBe(ONE_TOKEN);
  });
});
