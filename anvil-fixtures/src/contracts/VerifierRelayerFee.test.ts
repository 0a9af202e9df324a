/**
 * v2's relayer-fee teleports: the recipient signs `RelayerFeeAuthorization(recipientHash, totalValue, maxFee,
 * deadline)` over the domain `{"Verifier", "1"}`; the relayer (the caller) receives `relayerFee`, at most
 * `min(maxFee, difference)`, and the recipient the rest of the difference.
 */
import { describe, expect, it } from "vitest";
import { parseEventLogs, type Address, type Hash, type Hex } from "viem";
import { zerc20TokenAbi, zerc20VerifierAbiV2 } from "@svc/scheme";
import { fixtureVerifierV2AdminAbi } from "./fixtureAdminAbis.js";
import { expectRevert } from "./testing/expectRevert.js";
import { expectedRecipientHash } from "./testing/expectedRecipientHash.js";
import { signBatchProof, signSingleProof } from "./testing/fixtureProofs.js";
import { buildGeneralRecipient, type TestGeneralRecipient } from "./testing/generalRecipient.js";
import { signRelayerFee, type TestRelayerFee } from "./testing/relayerFee.js";
import { useLocalChain } from "./testing/useLocalChain.js";
import { proveFirstRoot, singleTeleport, TEST_ROOT } from "./testing/verifierActions.js";

const chain = useLocalChain({ protocol: "zerc20-v2" });
const ONE_TOKEN = 10n ** 18n;

function balanceOf(account: Address): Promise<bigint> {
  return chain().publicClient.readContract({ address: chain().deployment.token, abi: zerc20TokenAbi, functionName: "balanceOf", args: [account] });
}

/** The recipient is `treasury`, whose key signs the fee authorization. */
const recipient = (): TestGeneralRecipient => buildGeneralRecipient(chain().accounts.treasury.address);

async function latestTimestamp(): Promise<bigint> {
  return (await chain().publicClient.getBlock()).timestamp;
}

/** The recipient's signed fee tuple for the proved total `totalValue`, one hour ahead unless overridden. */
async function authorize(
  totalValue: bigint,
  fee: { relayerFee: bigint; maxFee: bigint; deadline?: bigint; signer?: Hex; recipientHash?: bigint },
): Promise<TestRelayerFee> {
  return signRelayerFee(chain(), {
    privateKey: fee.signer ?? chain().accounts.treasury.privateKey,
    recipientHash: fee.recipientHash ?? expectedRecipientHash(recipient()),
    totalValue,
    maxFee: fee.maxFee,
    deadline: fee.deadline ?? (await latestTimestamp()) + 3600n,
    relayerFee: fee.relayerFee,
  });
}

async function singleWithFee(rootHint: bigint, value: bigint, fee: TestRelayerFee): Promise<Hash> {
  const gr = recipient();
  const proof = await signSingleProof({ transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(gr), value });
  return chain()
    .wallet("relayer")
    .writeContract({ address: chain().deployment.verifier, abi: zerc20VerifierAbiV2, functionName: "singleTeleport", args: [false, rootHint, gr, proof, fee] });
}

describe("verifier zerc20-v2: relayer fee", () => {
  it("exposes the EIP-712 domain {Verifier, 1} and the published type hash", async () => {
    const { publicClient, deployment } = chain();
    const admin = { address: deployment.verifier, abi: fixtureVerifierV2AdminAbi } as const;
    const [, name, version, chainId, verifyingContract] = await publicClient.readContract({ ...admin, functionName: "eip712Domain" });
    expect({ name, version, chainId, verifyingContract }).toEqual({ name: "Verifier", version: "1", chainId: 31337n, verifyingContract: deployment.verifier });
  });

  it("pays the fee to the caller and the rest of the difference to the recipient, with TeleportWithRelayerFee", async () => {
    const { accounts, deployment, mined } = chain();
    const rootHint = await proveFirstRoot(chain());
    const value = 10n * ONE_TOKEN;
    const relayerBefore = await balanceOf(accounts.relayer.address);
    const receipt = await mined(singleWithFee(rootHint, value, await authorize(value, { relayerFee: ONE_TOKEN, maxFee: 2n * ONE_TOKEN })));

    expect(await balanceOf(accounts.treasury.address)).toBe(9n * ONE_TOKEN);
    expect(await balanceOf(accounts.relayer.address)).toBe(relayerBefore + ONE_TOKEN);
    const events = parseEventLogs({
      abi: zerc20VerifierAbiV2,
      logs: receipt.logs.filter((log) => log.address.toLowerCase() === deployment.verifier.toLowerCase()),
    });
    expect(events.map((event) => event.eventName)).toEqual(["TeleportWithRelayerFee"]);
    expect(events[0]?.args).toEqual({
      to: accounts.treasury.address,
      relayer: accounts.relayer.address,
      recipientValue: 9n * ONE_TOKEN,
      relayerFee: ONE_TOKEN,
      isGlobal: false,
      rootHint,
      transferRoot: TEST_ROOT,
      gr: recipient(),
    });
    const total = await chain().publicClient.readContract({
      address: deployment.verifier,
      abi: zerc20VerifierAbiV2,
      functionName: "totalTeleported",
      args: [expectedRecipientHash(recipient())],
    });
    expect(total).toBe(value);
  });

  it("caps the fee at min(maxFee, difference) with RelayerFeeTooHigh(relayerFee, limit)", async () => {
    const { mined } = chain();
    const rootHint = await proveFirstRoot(chain());
    const overMax = await expectRevert(
      singleWithFee(rootHint, 10n * ONE_TOKEN, await authorize(10n * ONE_TOKEN, { relayerFee: 3n, maxFee: 2n })),
      "RelayerFeeTooHigh",
    );
    expect(overMax.args).toEqual([3n, 2n]);

    await mined(singleTeleport(chain(), rootHint, recipient(), 10n * ONE_TOKEN));
    // The second proof adds 5 base units: the fee may not take more than those, whatever maxFee allows.
    const total = 10n * ONE_TOKEN + 5n;
    const overDifference = await expectRevert(
      singleWithFee(rootHint, total, await authorize(total, { relayerFee: 6n, maxFee: ONE_TOKEN })),
      "RelayerFeeTooHigh",
    );
    expect(overDifference.args).toEqual([6n, 5n]);
    await mined(singleWithFee(rootHint, total, await authorize(total, { relayerFee: 5n, maxFee: ONE_TOKEN })));
    expect(await balanceOf(chain().accounts.treasury.address)).toBe(10n * ONE_TOKEN);
  });

  it("mints nothing to the recipient when the fee takes the whole difference, and nothing to the relayer for a zero fee", async () => {
    const { deployment, mined } = chain();
    const rootHint = await proveFirstRoot(chain());
    const whole = await mined(singleWithFee(rootHint, 4n, await authorize(4n, { relayerFee: 4n, maxFee: 4n })));
    const indexed = (logs: typeof whole.logs) =>
      parseEventLogs({
        abi: zerc20TokenAbi,
        eventName: "IndexedTransfer",
        logs: logs.filter((log) => log.address.toLowerCase() === deployment.token.toLowerCase()),
      });
    expect(indexed(whole.logs).map((event) => event.args.to)).toEqual([chain().accounts.relayer.address]);
    const zero = await mined(singleWithFee(rootHint, 6n, await authorize(6n, { relayerFee: 0n, maxFee: 4n })));
    expect(indexed(zero.logs).map((event) => ({ to: event.args.to, value: event.args.value }))).toEqual([{ to: chain().accounts.treasury.address, value: 2n }]);
  });

  it("refuses an authorization past its deadline with RelayerFeeExpired(deadline, now), and takes one at exactly the deadline", async () => {
    const { testClient, mined } = chain();
    const rootHint = await proveFirstRoot(chain());
    const deadline = (await latestTimestamp()) + 100n;
    const fee = await authorize(ONE_TOKEN, { relayerFee: 1n, maxFee: 1n, deadline });
    await testClient.setNextBlockTimestamp({ timestamp: deadline + 1n });
    // Estimation runs against the next block, which carries the timestamp set above.
    const expired = await expectRevert(singleWithFee(rootHint, ONE_TOKEN, fee), "RelayerFeeExpired");
    expect(expired.args).toEqual([deadline, deadline + 1n]);

    const atDeadline = await authorize(ONE_TOKEN, { relayerFee: 1n, maxFee: 1n, deadline: (await latestTimestamp()) + 50n });
    await testClient.setNextBlockTimestamp({ timestamp: atDeadline.deadline });
    await mined(singleWithFee(rootHint, ONE_TOKEN, atDeadline));
  });

  it("refuses an authorization not signed by address(gr.recipient), or over other values, with InvalidRelayerFeeSignature()", async () => {
    const rootHint = await proveFirstRoot(chain());
    const value = 2n * ONE_TOKEN;
    await expectRevert(
      singleWithFee(rootHint, value, await authorize(value, { relayerFee: 1n, maxFee: 1n, signer: chain().accounts.relayer.privateKey })),
      "InvalidRelayerFeeSignature",
    );
    await expectRevert(singleWithFee(rootHint, value, await authorize(value + 1n, { relayerFee: 1n, maxFee: 1n })), "InvalidRelayerFeeSignature");
    await expectRevert(singleWithFee(rootHint, value, await authorize(value, { relayerFee: 1n, maxFee: 1n, recipientHash: 5n })), "InvalidRelayerFeeSignature");
    const signed = await authorize(value, { relayerFee: 1n, maxFee: 1n });
    await expectRevert(singleWithFee(rootHint, value, { ...signed, maxFee: 2n }), "InvalidRelayerFeeSignature");
  });

  it("runs the protocol's checks before the fee's", async () => {
    const rootHint = await proveFirstRoot(chain());
    const expired = await authorize(ONE_TOKEN, { relayerFee: 1n, maxFee: 1n, deadline: 1n });
    await expectRevert(singleWithFee(rootHint + 1n, ONE_TOKEN, expired), "ExpectedRootZero");
  });

  it("takes the batch overload with a withdraw_local decider proof", async () => {
    const { accounts, mined, wallet, deployment } = chain();
    const rootHint = await proveFirstRoot(chain());
    const gr = recipient();
    const value = 3n * ONE_TOKEN;
    const proof = await signBatchProof({ transferRoot: TEST_ROOT, recipientHash: expectedRecipientHash(gr), value });
    const fee = await authorize(value, { relayerFee: 2n, maxFee: 2n });
    await mined(
      wallet("relayer").writeContract({
        address: deployment.verifier,
        abi: zerc20VerifierAbiV2,
        functionName: "teleport",
        args: [false, rootHint, gr, proof, fee],
      }),
    );
    expect(await balanceOf(accounts.treasury.address)).toBe(value - 2n);
  });
});
