/**
 * A real daemon finalizing through the `command` prover adapter on a local stack of real single-teleport
 * proofs: the operator's program (here a real prover program, snarkjs with the stack's circuit, in a child
 * process) receives the witness on stdin and its Groth16 proof is minted on-chain by the exported verifier, so
 * the external-prover path runs end to end. The same payment's withdrawal witness, read through the admin API,
 * opens its burn address under its version, and the witness's secret never reaches the daemon's log.
 */
import { generalRecipientHash, openBurnAddress, zerc20Protocol } from "@svc/scheme";
import { hexToBigInt, parseEventLogs, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WithdrawalWitnessSchema } from "../../operator/withdrawalWitness.js";
import {
  balanceOf,
  broadcastBurn,
  facilitatorBody,
  postJson,
  requestOffer,
  startTestDaemon,
  startTestStack,
  waitForState,
  type TestStack,
} from "../../testing/localFacilitator.js";
import { fixtureProofLike, mintedProof, singleVerifierAccepts } from "../../testing/mintedProof.js";
import { SNARKJS_PROVER_PROGRAM } from "./testing/buildWithdrawProofInputs.js";

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300, singleTeleportVerifier: "groth16" });
}, 600_000);

afterAll(async () => {
  await stack?.close();
});

describe("the command prover on a real daemon", () => {
  it("mints the payment with the program's real proof; the withdrawal witness opens the burn address; no secret in the log", async () => {
    const circuit = stack.deployment.singleTeleportCircuit;
    if (circuit === undefined) throw new Error("the groth16 stack names no circuit files");
    const daemon = await startTestDaemon(stack, "command-prover", {
      daemon: { finalize_interval_ms: 1000 },
      // The stack's configuration proves with snarkjs in-process; this daemon hands the witness to a program instead.
      prover: {
        kind: "command",
        command: [process.execPath, SNARKJS_PROVER_PROGRAM, "--wasm", circuit.wasmPath, "--zkey", circuit.zkeyPath],
        timeout_ms: 120_000,
        wasm: null,
        zkey: null,
      },
    });
    try {
      const treasury = stack.deployment.accounts.treasury.address;
      const before = await balanceOf(stack, treasury);
      const requirements = await requestOffer(daemon, "100000");
      const burnTxHash = await broadcastBurn(stack, requirements, stack.deployment.accounts.payer.privateKey);
      const settled = await postJson(`${daemon.url}/settle`, facilitatorBody(requirements, { challengeNonce: requirements.extra.challengeNonce, burnTxHash }));
      expect(settled.body.success).toBe(true);

      const witnessAnswer = await fetch(`${daemon.url}/admin/withdrawal-witness/${requirements.extra.challengeNonce}`, {
        headers: { authorization: `Bearer ${stack.env.SVC_ADMIN_TOKEN}` },
      });
      expect(witnessAnswer.status).toBe(200);
      const witness = WithdrawalWitnessSchema.parse(await witnessAnswer.json());
      expect(witness).toMatchObject({ protocol: stack.deployment.protocol, burn_tx_hash: burnTxHash, state: "accepted", amount: requirements.amount });
      const recipient = {
        chainId: BigInt(witness.general_recipient.chain_id),
        recipient: witness.general_recipient.recipient,
        tweak: witness.general_recipient.tweak,
      };
      expect(generalRecipientHash(recipient)).toBe(witness.recipient_hash);
      expect(openBurnAddress(zerc20Protocol(witness.protocol), hexToBigInt(witness.recipient_hash), hexToBigInt(witness.secret))).toBe(requirements.payTo);

      const finalized = await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized", 120_000);
      expect(finalized.mintTxHash).toMatch(/^0x[0-9a-f]{64}$/);
      // The program's proof is a real one: the exported verifier accepts it and refuses a fixture signature over the same inputs.
      const { functionName, proof } = await mintedProof(stack, finalized.mintTxHash);
      expect(functionName).toBe("singleTeleport");
      expect(await singleVerifierAccepts(stack, proof)).toBe(true);
      expect(await singleVerifierAccepts(stack, await fixtureProofLike(stack, proof))).toBe(false);
      // The whole paid amount is minted to the treasury (the fee leaves it later, in a sweep).
      const mint = await stack.client.getTransactionReceipt({ hash: finalized.mintTxHash });
      const [teleport] = parseEventLogs({ abi: [zerc20Protocol(stack.deployment.protocol).teleportEvent], logs: mint.logs, strict: true });
      expect(teleport?.args).toMatchObject({ to: treasury, value: BigInt(requirements.amount) });
      expect(await balanceOf(stack, treasury)).toBeGreaterThanOrEqual(before + 100_000n);
      expect(daemon.logs.find((line) => line.includes('"started"'))).toContain('"prover":"command"');

      const secret = witness.secret as Hex;
      const log = daemon.logs.join("\n").toLowerCase();
      expect(log).not.toContain(secret.slice(2).toLowerCase());
      expect(log).not.toContain(hexToBigInt(secret).toString());
    } finally {
      await daemon.stop();
    }
  }, 180_000);
});
