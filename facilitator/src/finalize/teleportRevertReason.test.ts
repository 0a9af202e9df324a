/**
 * Real reverts of the fixture verifiers (the published errors of each version) decoded into finalize reason
 * codes, on a local stack per version: every case is a gas estimate of a mint the verifier refuses.
 */
import {
  addressToRecipient,
  emptyTreeRoot,
  FIXTURE_PROVER_PRIVATE_KEY,
  generalRecipientHash,
  signFixtureGroth16Proof,
  zerc20Protocol,
  zerc20VerifierAbi,
} from "@svc/scheme";
import { createWalletClient, hexToBigInt, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, type TestStack } from "../testing/localFacilitator.js";
import { teleportRevertReason } from "./teleportRevertReason.js";

describe.each(["zerc20-v1", "zerc20-v2"] as const)("teleport reverts under %s", (version) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ protocol: version });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const gr = () => ({ chainId: 31337n, recipient: addressToRecipient(stack.deployment.accounts.treasury.address), tweak: `0x${"42".repeat(32)}` as Hex });

  /** The reason a mint of `value` against root index `rootHint` with these public inputs would be refused for. */
  async function refusal(options: { rootHint?: bigint; root?: bigint; recipientHash?: bigint; value?: bigint; chainId?: bigint }) {
    const recipient = { ...gr(), chainId: options.chainId ?? 31337n };
    const proof = await signFixtureGroth16Proof({
      privateKey: FIXTURE_PROVER_PRIVATE_KEY,
      chainId: 31337n,
      publicInputs: [options.root ?? emptyTreeRoot(), options.recipientHash ?? hexToBigInt(generalRecipientHash(recipient)), options.value ?? 5n],
    });
    const error = await stack.client
      .estimateContractGas({
        address: stack.deployment.verifier,
        abi: zerc20Protocol(version).verifierAbi,
        functionName: "singleTeleport",
        args: [false, options.rootHint ?? 0n, recipient, proof],
        account: stack.deployment.accounts.relayer.address,
      })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error, "the verifier accepted the mint").toBeDefined();
    return teleportRevertReason(error);
  }

  it("a root index with no proved root, or another root: root_rejected (waiting)", async () => {
    expect(await refusal({ rootHint: 999n })).toEqual({ kind: "waiting", reason: "root_rejected", revert: "ExpectedRootZero" });
    expect(await refusal({ root: 7n })).toEqual({ kind: "waiting", reason: "root_rejected", revert: "TransferRootMismatch" });
  });

  it("a recipient hash or chain the verifier does not mint to: recipient_rejected (failed)", async () => {
    expect(await refusal({ recipientHash: 1n << 248n })).toEqual({ kind: "failed", reason: "recipient_rejected", revert: "RecipientMismatch" });
    const otherChain = { ...gr(), chainId: 1n };
    expect(await refusal({ chainId: 1n, recipientHash: hexToBigInt(generalRecipientHash(otherChain)) })).toEqual({
      kind: "failed",
      reason: "recipient_rejected",
      revert: "InvalidRecipientChainId",
    });
  });

  it("nothing above what was minted: nothing_to_withdraw; a proof that does not verify: proof_rejected", async () => {
    expect(await refusal({ value: 0n })).toEqual({ kind: "waiting", reason: "nothing_to_withdraw", revert: "NothingToWithdraw" });
    // A true statement signed for another chain: the fixture Groth16 verifier refuses it like a bad proof.
    const recipient = gr();
    const proof = await signFixtureGroth16Proof({
      privateKey: FIXTURE_PROVER_PRIVATE_KEY,
      chainId: 1n,
      publicInputs: [emptyTreeRoot(), hexToBigInt(generalRecipientHash(recipient)), 5n],
    });
    const error = await stack.client
      .estimateContractGas({
        address: stack.deployment.verifier,
        abi: zerc20Protocol(version).verifierAbi,
        functionName: "singleTeleport",
        args: [false, 0n, recipient, proof],
        account: stack.deployment.accounts.relayer.address,
      })
      .catch((caught: unknown) => caught);
    expect(teleportRevertReason(error)).toEqual({ kind: "waiting", reason: "proof_rejected", revert: "InvalidProof" });
  });

  it("a paused verifier: verifier_paused, with each version's own revert", async () => {
    const owner = createWalletClient({
      chain: foundry,
      transport: http(stack.deployment.rpcUrl),
      account: privateKeyToAccount(stack.deployment.accounts.deployer.privateKey),
    });
    const pause = async (functionName: "activateEmergency" | "deactivateEmergency") =>
      stack.client.waitForTransactionReceipt({ hash: await owner.writeContract({ address: stack.deployment.verifier, abi: zerc20VerifierAbi, functionName }) });
    await pause("activateEmergency");
    try {
      expect(await refusal({})).toEqual({ kind: "waiting", reason: "verifier_paused", revert: version === "zerc20-v1" ? "Pausable: paused" : "EnforcedPause" });
    } finally {
      await pause("deactivateEmergency");
    }
  });

  it("leaves anything that is no published revert to the caller", () => {
    expect(teleportRevertReason(new TypeError("socket hang up"))).toBeUndefined();
  });
});
