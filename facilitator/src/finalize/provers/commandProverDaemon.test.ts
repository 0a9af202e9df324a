/**
 * A real daemon finalizing through the `command` prover adapter on the local stack: the operator's program
 * (here the fixture prover program, a real child process) receives the witness on stdin and its proof is
 * minted on-chain. The same payment's withdrawal witness, read through the admin API, opens its burn address
 * under its version, and neither the witness's secret nor the program's echo of it reaches the daemon's log.
 */
import { fileURLToPath } from "node:url";
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

const PROGRAM = fileURLToPath(new URL("./testing/fixtureProverProgram.mjs", import.meta.url));

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ rootIntervalMs: 300 });
});

afterAll(async () => {
  await stack?.close();
});

describe("the command prover on a real daemon", () => {
  it("mints the payment with the program's proof; the withdrawal witness opens the burn address; no secret in the log", async () => {
    const daemon = await startTestDaemon(stack, "command-prover", {
      daemon: { finalize_interval_ms: 1000 },
      prover: { kind: "command", command: [process.execPath, PROGRAM], timeout_ms: 30_000 },
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

      const finalized = await waitForState(stack, daemon, requirements.extra.challengeNonce, "finalized");
      expect(finalized.mintTxHash).toMatch(/^0x[0-9a-f]{64}$/);
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
  });
});
