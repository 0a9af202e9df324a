/**
 * Teleports on both verifier versions: the published checks in the published order with the published errors,
 * the difference-only mint to `address(gr.recipient)`, each version's mint event (topics checked against
 * `zerc20Protocol(v).teleportEvent`), the batch and global paths, and the emergency pause.
 */
import { describe, expect, it } from "vitest";
import { decodeAbiParameters, pad, parseEventLogs, toEventSelector, type Address, type Hash, type Log } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { type ProtocolVersion, zerc20TokenAbi, zerc20TokenAbiV1, zerc20VerifierAbiV1, zerc20VerifierAbiV2 } from "@svc/scheme";
import { fixtureHubAbi, fixtureVerifierAdminAbi } from "./fixtureAdminAbis.js";
import { expectRevert } from "./testing/expectRevert.js";
import { expectedRecipientHash } from "./testing/expectedRecipientHash.js";
import { encodeBatchWords, signBatchProof, signSingleProof } from "./testing/fixtureProofs.js";
import { buildGeneralRecipient } from "./testing/generalRecipient.js";
import { useLocalChain, type LocalChain } from "./testing/useLocalChain.js";
import { proveFirstRoot, singleTeleport, submitTeleport, TEST_ROOT, verifierContract } from "./testing/verifierActions.js";

const ONE_TOKEN = 10n ** 18n;

function balanceOf(chain: LocalChain, account: Address): Promise<bigint> {
  return chain.publicClient.readContract({ address: chain.deployment.token, abi: zerc20TokenAbiV1, functionName: "balanceOf", args: [account] });
}

function totalTeleported(chain: LocalChain, recipientHash: bigint): Promise<bigint> {
  return chain.publicClient.readContract({ ...verifierContract(chain), functionName: "totalTeleported", args: [recipientHash] });
}

/** Logs one contract emitted in a receipt. */
const logsOf = (logs: readonly Log[], address: Address) => logs.filter((log) => log.address.toLowerCase() === address.toLowerCase());

/** Publishes `root` at global index `index` through the fixture hub, as the owner. */
async function publishGlobalRoot(chain: LocalChain, index: bigint, root: bigint): Promise<void> {
  await chain.mined(
    chain.wallet("deployer").writeContract({ address: chain.deployment.hub, abi: fixtureHubAbi, functionName: "publishGlobalRoot", args: [index, root] }),
  );
}

describe.each<ProtocolVersion>(["zerc20-v1", "zerc20-v2"])("verifier %s: teleports", (version) => {
  const chain = useLocalChain({ protocol: version });

  it("computes the recipient hash R exactly as the published formula", async () => {
    const { publicClient, deployment, accounts } = chain();
    const recipients = [
      buildGeneralRecipient(accounts.treasury.address),
      buildGeneralRecipient(accounts.payee.address, "another tweak", { chainId: 1n }),
      buildGeneralRecipient(accounts.treasury.address, "max chain id", { chainId: 2n ** 64n - 1n }),
    ];
    for (const gr of recipients) {
      const onChain = await publicClient.readContract({
        address: deployment.verifier,
        abi: fixtureVerifierAdminAbi,
        functionName: "recipientHashOf",
        args: [gr],
      });
      expect(onChain).toBe(expectedRecipientHash(gr));
      expect(onChain >> 248n).toBe(1n);
    }
  });

  it("mints the proved value to address(gr.recipient), records it under R and emits the version's Teleport event", async () => {
    const current = chain();
    const { deployment, accounts, protocol, mined } = current;
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const recipientHash = expectedRecipientHash(gr);
    const value = 3n * ONE_TOKEN;

    const receipt = await mined(singleTeleport(current, rootHint, gr, value));

    expect(await balanceOf(current, accounts.treasury.address)).toBe(value);
    expect(await totalTeleported(current, recipientHash)).toBe(value);
    const [verifierLog] = logsOf(receipt.logs, deployment.verifier);
    expect(verifierLog?.topics).toEqual([toEventSelector(protocol.teleportEvent), pad(accounts.treasury.address, { size: 32 }).toLowerCase()]);
    const [teleport] = parseEventLogs({ abi: protocol.verifierAbi, logs: logsOf(receipt.logs, deployment.verifier) });
    if (version === "zerc20-v1") {
      expect(teleport?.args).toEqual({ to: accounts.treasury.address, value });
    } else {
      expect(teleport?.args).toEqual({ to: accounts.treasury.address, value, isGlobal: false, rootHint, transferRoot: TEST_ROOT, gr });
    }
  });

  it("mints only the difference for a larger proved total, and refuses an equal or smaller one with NothingToWithdraw(total, value)", async () => {
    const current = chain();
    const { accounts, deployment, protocol, mined } = current;
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(accounts.treasury.address);
    await mined(singleTeleport(current, rootHint, gr, 3n * ONE_TOKEN));

    const receipt = await mined(singleTeleport(current, rootHint, gr, 5n * ONE_TOKEN));
    expect(await balanceOf(current, accounts.treasury.address)).toBe(5n * ONE_TOKEN);
    const [teleport] = parseEventLogs({ abi: protocol.verifierAbi, logs: logsOf(receipt.logs, deployment.verifier) });
    expect(teleport?.args).toMatchObject({ to: accounts.treasury.address, value: 2n * ONE_TOKEN });

    const equal = await expectRevert(singleTeleport(current, rootHint, gr, 5n * ONE_TOKEN), "NothingToWithdraw");
    expect(equal.args).toEqual([5n * ONE_TOKEN, 5n * ONE_TOKEN]);
    const smaller = await expectRevert(singleTeleport(current, rootHint, gr, 4n * ONE_TOKEN), "NothingToWithdraw");
    expect(smaller.args).toEqual([5n * ONE_TOKEN, 4n * ONE_TOKEN]);
    expect(await balanceOf(current, accounts.treasury.address)).toBe(5n * ONE_TOKEN);
  });

  it("refuses a hint without a root with ExpectedRootZero(rootHint), locally and globally", async () => {
    const current = chain();
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(current.accounts.treasury.address);
    const local = await expectRevert(singleTeleport(current, rootHint + 1n, gr, ONE_TOKEN), "ExpectedRootZero");
    expect(local.args).toEqual([rootHint + 1n]);
    const proof = await signSingleProof({ transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(gr), value: ONE_TOKEN });
    const global = await expectRevert(submitTeleport(current, "singleTeleport", true, rootHint, gr, proof), "ExpectedRootZero");
    expect(global.args).toEqual([rootHint]);
  });

  it("refuses a proof over another root with TransferRootMismatch(stored, given)", async () => {
    const current = chain();
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(current.accounts.treasury.address);
    const mismatch = await expectRevert(singleTeleport(current, rootHint, gr, ONE_TOKEN, TEST_ROOT + 1n), "TransferRootMismatch");
    expect(mismatch.args).toEqual([TEST_ROOT, TEST_ROOT + 1n]);
  });

  it("refuses a proof for another recipient hash with RecipientMismatch(expected, given)", async () => {
    const current = chain();
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(current.accounts.treasury.address);
    const otherHash = expectedRecipientHash(buildGeneralRecipient(current.accounts.treasury.address, "other tweak"));
    const proof = await signSingleProof({ transferRoot: TEST_ROOT, recipientHash: otherHash, value: ONE_TOKEN });
    const mismatch = await expectRevert(submitTeleport(current, "singleTeleport", false, rootHint, gr, proof), "RecipientMismatch");
    expect(mismatch.args).toEqual([expectedRecipientHash(gr), otherHash]);
  });

  it("refuses a recipient on another chain with InvalidRecipientChainId(block.chainid, gr.chainId)", async () => {
    const current = chain();
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(current.accounts.treasury.address, "tweak-1", { chainId: 1n });
    const wrongChain = await expectRevert(singleTeleport(current, rootHint, gr, ONE_TOKEN), "InvalidRecipientChainId");
    expect(wrongChain.args).toEqual([31337n, 1n]);
  });

  it("refuses a proof signed by another key, or for the batch circuit, with InvalidProof()", async () => {
    const current = chain();
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(current.accounts.treasury.address);
    const claim = { transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(gr), value: ONE_TOKEN };
    await expectRevert(
      submitTeleport(current, "singleTeleport", false, rootHint, gr, await signSingleProof(claim, { privateKey: generatePrivateKey() })),
      "InvalidProof",
    );
    await expectRevert(
      submitTeleport(current, "singleTeleport", false, rootHint, gr, await signSingleProof(claim, { circuit: "withdraw_local" })),
      "InvalidProof",
    );
    expect(await balanceOf(current, current.accounts.treasury.address)).toBe(0n);
  });

  it("checks in the published order: root, root match, recipient, chain, total, proof", async () => {
    const current = chain();
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(current.accounts.treasury.address);
    const otherChain = { ...gr, chainId: 1n };
    const badKey = { privateKey: generatePrivateKey() };
    const send = async (hint: bigint, recipient: typeof gr, claim: { transferRoot: bigint; recipientHash: bigint; value: bigint }): Promise<Hash> =>
      submitTeleport(current, "singleTeleport", false, hint, recipient, await signSingleProof(claim, badKey));
    await current.mined(singleTeleport(current, rootHint, gr, 2n * ONE_TOKEN));
    const wrongEverything = { transferRoot: TEST_ROOT + 1n, recipientHash: 1n, value: ONE_TOKEN };
    await expectRevert(send(rootHint + 1n, otherChain, wrongEverything), "ExpectedRootZero");
    await expectRevert(send(rootHint, otherChain, wrongEverything), "TransferRootMismatch");
    await expectRevert(send(rootHint, otherChain, { ...wrongEverything, transferRoot: TEST_ROOT }), "RecipientMismatch");
    const recipientOnOtherChain = { transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(otherChain), value: ONE_TOKEN };
    await expectRevert(send(rootHint, otherChain, recipientOnOtherChain), "InvalidRecipientChainId");
    await expectRevert(send(rootHint, gr, { ...recipientOnOtherChain, recipientHash: expectedRecipientHash(gr) }), "NothingToWithdraw");
    await expectRevert(send(rootHint, gr, { transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(gr), value: 3n * ONE_TOKEN }), "InvalidProof");
  });

  it("takes withdraw_local decider proofs on teleport(...), and refuses another circuit, a single proof or a broken shape", async () => {
    const current = chain();
    const { accounts, mined } = current;
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const claim = { transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(gr), value: 2n * ONE_TOKEN };
    await expectRevert(submitTeleport(current, "teleport", false, rootHint, gr, await signBatchProof(claim, { circuit: "withdraw_global" })), "InvalidProof");
    await expect(submitTeleport(current, "teleport", false, rootHint, gr, await signSingleProof(claim))).rejects.toThrow();
    const valid = await signBatchProof(claim);
    const [words] = decodeAbiParameters([{ type: "uint256[34]" }], valid);
    for (const [index, value] of [
      [3, 1n],
      [4, 1n],
      [5, TEST_ROOT + 1n],
      [6, claim.recipientHash + 1n],
    ] as const) {
      const broken = words.map((word, at) => (at === index ? value : word));
      await expectRevert(submitTeleport(current, "teleport", false, rootHint, gr, encodeBatchWords(broken)), "InvalidProof");
    }
    await mined(submitTeleport(current, "teleport", false, rootHint, gr, valid));
    expect(await balanceOf(current, accounts.treasury.address)).toBe(2n * ONE_TOKEN);
    expect(await totalTeleported(current, claim.recipientHash)).toBe(2n * ONE_TOKEN);
  });

  it("reads global roots that the owner or the hub stores, on both paths, apart from local roots", async () => {
    const current = chain();
    const { deployment, accounts, publicClient, wallet, mined } = current;
    const globalRoot = TEST_ROOT + 99n;
    await expectRevert(
      wallet("payer").writeContract({ address: deployment.hub, abi: fixtureHubAbi, functionName: "publishGlobalRoot", args: [1n, globalRoot] }),
      "OwnableUnauthorizedAccount",
    );
    await expectRevert(
      wallet("payer").writeContract({
        address: deployment.verifier,
        abi: fixtureVerifierAdminAbi,
        functionName: "setGlobalTransferRoot",
        args: [1n, globalRoot],
      }),
      "OwnableUnauthorizedAccount",
    );
    await publishGlobalRoot(current, 1n, globalRoot);
    await mined(
      wallet("deployer").writeContract({
        address: deployment.verifier,
        abi: fixtureVerifierAdminAbi,
        functionName: "setGlobalTransferRoot",
        args: [2n, globalRoot + 1n],
      }),
    );
    const read = (index: bigint) => publicClient.readContract({ ...verifierContract(current), functionName: "globalTransferRoots", args: [index] });
    expect([await read(1n), await read(2n)]).toEqual([globalRoot, globalRoot + 1n]);

    const gr = buildGeneralRecipient(accounts.treasury.address);
    const claim = { transferRoot: globalRoot, recipientHash: expectedRecipientHash(gr), value: ONE_TOKEN };
    await mined(submitTeleport(current, "singleTeleport", true, 1n, gr, await signSingleProof(claim)));
    await expectRevert(submitTeleport(current, "teleport", true, 1n, gr, await signBatchProof({ ...claim, value: 3n * ONE_TOKEN })), "InvalidProof");
    await mined(submitTeleport(current, "teleport", true, 1n, gr, await signBatchProof({ ...claim, value: 3n * ONE_TOKEN }, { circuit: "withdraw_global" })));
    expect(await balanceOf(current, accounts.treasury.address)).toBe(3n * ONE_TOKEN);
    // Local proved roots are a separate namespace: index 1 has no local root.
    await expectRevert(
      submitTeleport(current, "singleTeleport", false, 1n, gr, await signSingleProof({ ...claim, value: 4n * ONE_TOKEN })),
      "ExpectedRootZero",
    );
  });

  it("stops teleports while the owner's emergency switch is on", async () => {
    const current = chain();
    const { deployment, accounts, wallet, mined, publicClient } = current;
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(accounts.treasury.address);
    const toggle = (signer: "payer" | "deployer", functionName: "activateEmergency" | "deactivateEmergency") =>
      wallet(signer).writeContract({ ...verifierContract(current), functionName });

    await expectRevert(toggle("payer", "activateEmergency"), "OwnableUnauthorizedAccount");
    await mined(toggle("deployer", "activateEmergency"));
    expect(await publicClient.readContract({ ...verifierContract(current), functionName: "paused" })).toBe(true);
    const batch = await signBatchProof({ transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(gr), value: ONE_TOKEN });
    if (version === "zerc20-v1") {
      expect((await expectRevert(singleTeleport(current, rootHint, gr, ONE_TOKEN), "Error")).args).toEqual(["Pausable: paused"]);
      expect((await expectRevert(submitTeleport(current, "teleport", false, rootHint, gr, batch), "Error")).args).toEqual(["Pausable: paused"]);
    } else {
      await expectRevert(singleTeleport(current, rootHint, gr, ONE_TOKEN), "EnforcedPause");
      await expectRevert(submitTeleport(current, "teleport", false, rootHint, gr, batch), "EnforcedPause");
    }

    await mined(toggle("deployer", "deactivateEmergency"));
    await mined(singleTeleport(current, rootHint, gr, ONE_TOKEN));
    expect(await balanceOf(current, accounts.treasury.address)).toBe(ONE_TOKEN);
    expect(deployment.protocol).toBe(version);
  });
});

describe("verifier zerc20-v1: mint events", () => {
  const chain = useLocalChain({ protocol: "zerc20-v1" });

  it("the token emits Teleport(to, value) beside the verifier's", async () => {
    const current = chain();
    const rootHint = await proveFirstRoot(current);
    const gr = buildGeneralRecipient(current.accounts.treasury.address);
    const receipt = await current.mined(singleTeleport(current, rootHint, gr, ONE_TOKEN));
    const tokenEvents = parseEventLogs({ abi: zerc20TokenAbiV1, logs: logsOf(receipt.logs, current.deployment.token) });
    expect(tokenEvents.map((event) => event.eventName)).toEqual(["Transfer", "IndexedTransfer", "Teleport"]);
    const verifierEvents = parseEventLogs({ abi: zerc20VerifierAbiV1, logs: logsOf(receipt.logs, current.deployment.verifier) });
    expect(verifierEvents.map((event) => event.eventName)).toEqual(["Teleport"]);
    expect(
      await expectRevert(current.wallet("deployer").writeContract({ ...verifierContract(current), functionName: "deactivateEmergency" }), "Error"),
    ).toMatchObject({
      args: ["Pausable: not paused"],
    });
  });
});

describe("verifier zerc20-v2: mint events", () => {
  const chain = useLocalChain({ protocol: "zerc20-v2" });

  it("the token emits no Teleport event and adds every mint to its totalTeleported", async () => {
    const current = chain();
    const { deployment, accounts, publicClient, mined } = current;
    const rootHint = await proveFirstRoot(current);
    const receipt = await mined(singleTeleport(current, rootHint, buildGeneralRecipient(accounts.treasury.address), 2n * ONE_TOKEN));
    await mined(singleTeleport(current, rootHint, buildGeneralRecipient(accounts.payee.address, "tweak-2"), 5n));
    const tokenLogs = logsOf(receipt.logs, deployment.token);
    expect(parseEventLogs({ abi: zerc20TokenAbi, logs: tokenLogs }).map((event) => event.eventName)).toEqual(["Transfer", "IndexedTransfer"]);
    expect(tokenLogs).toHaveLength(2);
    const verifierEvents = parseEventLogs({ abi: zerc20VerifierAbiV2, logs: logsOf(receipt.logs, deployment.verifier) });
    expect(verifierEvents.map((event) => event.eventName)).toEqual(["Teleport"]);
    expect(await publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "totalTeleported" })).toBe(2n * ONE_TOKEN + 5n);
    await expectRevert(current.wallet("deployer").writeContract({ ...verifierContract(current), functionName: "deactivateEmergency" }), "ExpectedPause");
  });
});
