import { describe, expect, it } from "vitest";
import { parseEventLogs, type Hash, type Hex } from "viem";
import { permitBurnerAbi, zerc20TokenAbi } from "@svc/scheme";
import {
  buildBurnAuthorization,
  offChainAuthorizationId,
  signBurnAuthorization,
  TEST_BURN_ADDRESS,
  type TestBurnAuthorization,
} from "./testing/burnAuthorization.js";
import { expectRevert } from "./testing/expectRevert.js";
import { signPermit, type SignedPermit } from "./testing/signPermit.js";
import { useLocalChain } from "./testing/useLocalChain.js";

// PermitBurner needs EIP-2612, which only the v2 token has.
const chain = useLocalChain({ protocol: "zerc20-v2" });

/** A complete, valid gasless payload from `payer`, with overrides of the authorization. */
async function buildPayload(overrides: Partial<TestBurnAuthorization> = {}): Promise<{ auth: TestBurnAuthorization; permit: SignedPermit; burnAuthSig: Hex }> {
  const current = chain();
  const auth = await buildBurnAuthorization(current, overrides);
  const permit = await signPermit(current, {
    owner: current.accounts.payer.privateKey,
    token: auth.token,
    spender: current.deployment.permitBurner,
    value: auth.value,
  });
  const burnAuthSig = await signBurnAuthorization(current, auth, current.accounts.payer.privateKey);
  return { auth, permit, burnAuthSig };
}

/** The relayer submits the payload, as the facilitator does. */
function submit(auth: TestBurnAuthorization, permit: SignedPermit, burnAuthSig: Hex): Promise<Hash> {
  const { deployment, wallet } = chain();
  return wallet("relayer").writeContract({
    address: deployment.permitBurner,
    abi: permitBurnerAbi,
    functionName: "permitAndBurn",
    args: [auth, { deadline: permit.deadline, v: permit.v, r: permit.r, s: permit.s }, burnAuthSig],
  });
}

function balanceOf(account: Hex): Promise<bigint> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [account] });
}

function isExecuted(id: Hex): Promise<boolean> {
  const { publicClient, deployment } = chain();
  return publicClient.readContract({ address: deployment.permitBurner, abi: permitBurnerAbi, functionName: "executed", args: [id] });
}

describe("PermitBurner", () => {
  it("exposes the SvcPermitBurner v1 EIP-712 domain", async () => {
    const { publicClient, deployment } = chain();
    const [, name, version, chainId, verifyingContract] = await publicClient.readContract({
      address: deployment.permitBurner,
      abi: permitBurnerAbi,
      functionName: "eip712Domain",
    });
    expect({ name, version, chainId, verifyingContract }).toEqual({
      name: "SvcPermitBurner",
      version: "1",
      chainId: BigInt(deployment.chainId),
      verifyingContract: deployment.permitBurner,
    });
  });

  it("computes the same authorization id on chain as viem hashTypedData off chain", async () => {
    const current = chain();
    const auth = await buildBurnAuthorization(current);
    const onChain = await current.publicClient.readContract({
      address: current.deployment.permitBurner,
      abi: permitBurnerAbi,
      functionName: "authorizationId",
      args: [auth],
    });
    expect(onChain).toBe(offChainAuthorizationId(current, auth));
  });

  it("permits and burns in one transaction: balance moves, event carries every field, ledger marks it", async () => {
    const current = chain();
    const { auth, permit, burnAuthSig } = await buildPayload();
    const payerBefore = await balanceOf(auth.payer);

    const receipt = await current.mined(submit(auth, permit, burnAuthSig));

    const id = offChainAuthorizationId(current, auth);
    expect(await balanceOf(auth.payer)).toBe(payerBefore - auth.value);
    expect(await balanceOf(TEST_BURN_ADDRESS)).toBe(auth.value);
    expect(await isExecuted(id)).toBe(true);
    const [burn] = parseEventLogs({ abi: permitBurnerAbi, logs: receipt.logs, eventName: "BurnExecuted" });
    expect(burn?.args).toEqual({
      challengeNonce: auth.challengeNonce,
      authorizationId: id,
      token: current.deployment.token,
      payer: auth.payer,
      burnAddress: auth.burnAddress,
      value: auth.value,
    });
  });

  it("refuses a replay of the same payload with AuthorizationAlreadyUsed", async () => {
    const current = chain();
    const { auth, permit, burnAuthSig } = await buildPayload();
    await current.mined(submit(auth, permit, burnAuthSig));

    const replay = await expectRevert(submit(auth, permit, burnAuthSig), "AuthorizationAlreadyUsed");
    expect(replay.args).toEqual([offChainAuthorizationId(current, auth)]);
    expect(await balanceOf(TEST_BURN_ADDRESS)).toBe(auth.value);
  });

  it("tolerates a front-run permit: the permit is submitted directly first, the burn still succeeds", async () => {
    const current = chain();
    const { auth, permit, burnAuthSig } = await buildPayload();
    await current.mined(
      current.wallet("payer2").writeContract({
        address: current.deployment.token,
        abi: zerc20TokenAbi,
        functionName: "permit",
        args: [auth.payer, current.deployment.permitBurner, auth.value, permit.deadline, permit.v, permit.r, permit.s],
      }),
    );

    await current.mined(submit(auth, permit, burnAuthSig));

    expect(await balanceOf(TEST_BURN_ADDRESS)).toBe(auth.value);
  });

  it("reverts PermitFailed when the permit is invalid and no allowance covers the burn", async () => {
    const { auth, permit, burnAuthSig } = await buildPayload();
    const wrongPermit = { ...permit, deadline: permit.deadline + 1n };

    const failed = await expectRevert(submit(auth, wrongPermit, burnAuthSig), "PermitFailed");
    expect(failed.args).toEqual([0n, auth.value]);
  });

  it("reverts InvalidBurnAuthorization for a malformed signature", async () => {
    const { auth, permit } = await buildPayload();
    await expectRevert(submit(auth, permit, "0x1234"), "InvalidBurnAuthorization");
    await expectRevert(submit(auth, permit, `0x${"11".repeat(65)}`), "InvalidBurnAuthorization");
  });

  it("reverts InvalidBurnAuthorization when someone other than the payer signed", async () => {
    const current = chain();
    const { auth, permit } = await buildPayload();
    const byPayer2 = await signBurnAuthorization(current, auth, current.accounts.payer2.privateKey);
    await expectRevert(submit(auth, permit, byPayer2), "InvalidBurnAuthorization");
  });

  it("reverts InvalidBurnAuthorization when a signed field is changed (here the burn address)", async () => {
    const { auth, permit, burnAuthSig } = await buildPayload();
    const redirected = { ...auth, burnAddress: chain().accounts.relayer.address };
    await expectRevert(submit(redirected, permit, burnAuthSig), "InvalidBurnAuthorization");
  });

  it("reverts AuthorizationExpired after the deadline", async () => {
    const { timestamp } = await chain().publicClient.getBlock();
    const { auth, permit, burnAuthSig } = await buildPayload({ deadline: timestamp - 1n });
    const expired = await expectRevert(submit(auth, permit, burnAuthSig), "AuthorizationExpired");
    expect(expired.args[0]).toBe(auth.deadline);
  });

  it("reverts ZeroValue for a zero-value authorization", async () => {
    const { auth, permit, burnAuthSig } = await buildPayload({ value: 0n });
    await expectRevert(submit(auth, permit, burnAuthSig), "ZeroValue");
  });
});
