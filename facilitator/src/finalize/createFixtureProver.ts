/**
 * The local stack's prover adapter. It checks the withdraw statement honestly under the payment's protocol
 * version (recipient hash, burn address with its proof of work, every leaf with its sender and Merkle path
 * against the root, the sum) and only then signs the public inputs with the published fixture key, in the
 * published encodings (Groth16 352 bytes; the decider's `uint256[34]`), so a wrong root, value, sender or
 * recipient fails here or on-chain as it would with a real proof. The batch path goes through the
 * decider-prover jobs API like the real one. It can only be constructed under profile `local` on chain 31337.
 */
import {
  FIXTURE_PROVER_PRIVATE_KEY,
  generalRecipientHash,
  openBurnAddress,
  signFixtureGroth16Proof,
  signFixtureIvcProof,
  verifyMerklePath,
  zerc20Protocol,
} from "@svc/scheme";
import { bytesToHex, hexToBigInt, hexToBytes, isAddressEqual, keccak256, toHex, type Hex } from "viem";
import { z } from "zod";
import type { Profile } from "../config/facilitatorConfigSchema.js";
import { DeciderJobError, FalseWithdrawStatementError, FixtureProverRefusedError } from "./errors.js";
import type { ProverPort, WithdrawProofInputs } from "./proverPort.js";

const LOCAL_CHAIN_ID = 31337;

const JobSchema = z.looseObject({
  status: z.enum(["queued", "processing", "completed", "failed"]),
  result: z.string().optional(),
  error: z.string().optional(),
});

/** Where the fixture prover runs and whom it asks for batch proofs. */
export type CreateFixtureProverParameters = {
  profile: Profile | undefined;
  chainId: number;
  deciderUrl: string;
  /** How long a decider job may take (default 60 s). */
  jobTimeoutMs?: number;
};

/** Creates the fixture prover; throws {@link FixtureProverRefusedError} outside profile `local` on 31337. */
export function createFixtureProver(parameters: CreateFixtureProverParameters): ProverPort {
  if (parameters.profile !== "local" || parameters.chainId !== LOCAL_CHAIN_ID) {
    throw new FixtureProverRefusedError({ profile: parameters.profile, chainId: parameters.chainId });
  }
  const chainId = BigInt(parameters.chainId);
  const decider = parameters.deciderUrl.replace(/\/+$/, "");
  const proveWithDecider = async (inputs: WithdrawProofInputs): Promise<Hex> => {
    const lastLeafPosition = inputs.transfers.reduce((max, transfer) => (transfer.leafIndex > max ? transfer.leafIndex : max), 0n);
    const ivcProof = await signFixtureIvcProof({
      privateKey: FIXTURE_PROVER_PRIVATE_KEY,
      circuit: "ivc_withdraw_local",
      chainId,
      proof: {
        steps: BigInt(inputs.transfers.length),
        root: inputs.root,
        recipientHash: hexToBigInt(inputs.recipientHash),
        lastLeafPosition,
        totalValue: inputs.value,
      },
    });
    // The job id is the statement's hash: re-submitting the same statement after a crash finds the same job.
    const jobId = keccak256(ivcProof).slice(2, 34);
    const submitted = await fetch(`${decider}/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ job_id: jobId, circuit: "withdraw_local", ivc_proof: Buffer.from(hexToBytes(ivcProof)).toString("base64") }),
    }).catch((cause: unknown) => {
      throw new DeciderJobError({ jobId, reason: "the decider is unreachable", cause });
    });
    if (submitted.status !== 200 && submitted.status !== 202) throw new DeciderJobError({ jobId, reason: `submission answered HTTP ${submitted.status}` });
    const giveUpAt = Date.now() + (parameters.jobTimeoutMs ?? 60_000);
    for (;;) {
      const answer = await fetch(`${decider}/jobs/${jobId}`).catch((cause: unknown) => {
        throw new DeciderJobError({ jobId, reason: "the decider is unreachable", cause });
      });
      const job = JobSchema.safeParse(await answer.json().catch(() => undefined));
      if (!job.success) throw new DeciderJobError({ jobId, reason: "unreadable job status" });
      if (job.data.status === "completed" && job.data.result) return bytesToHex(Buffer.from(job.data.result, "base64"));
      if (job.data.status === "failed") throw new DeciderJobError({ jobId, reason: job.data.error ?? "failed" });
      if (Date.now() > giveUpAt) throw new DeciderJobError({ jobId, reason: "timed out" });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  return {
    proveSingle: async (inputs) => {
      assertStatement(inputs);
      if (inputs.transfers.length !== 1) throw new FalseWithdrawStatementError("the single path proves exactly one transfer");
      return signFixtureGroth16Proof({
        privateKey: FIXTURE_PROVER_PRIVATE_KEY,
        chainId,
        publicInputs: [inputs.root, hexToBigInt(inputs.recipientHash), inputs.value],
      });
    },
    proveBatch: async (inputs) => {
      assertStatement(inputs);
      return proveWithDecider(inputs);
    },
  };
}

function assertStatement(inputs: WithdrawProofInputs): void {
  if (generalRecipientHash(inputs.recipient) !== inputs.recipientHash) throw new FalseWithdrawStatementError("the recipient hash does not match the recipient");
  const protocol = zerc20Protocol(inputs.protocol);
  const opened = openBurnAddress(protocol, hexToBigInt(inputs.recipientHash), inputs.secret);
  if (opened === undefined || !isAddressEqual(opened, inputs.burnAddress)) {
    throw new FalseWithdrawStatementError("the secret does not open the burn address");
  }
  let sum = 0n;
  for (const transfer of inputs.transfers) {
    const leaf = protocol.transferLeaf({ from: transfer.from, to: inputs.burnAddress, value: transfer.value });
    if (!verifyMerklePath({ leaf, leafIndex: transfer.leafIndex, siblings: transfer.siblings, root: inputs.root })) {
      throw new FalseWithdrawStatementError(`transfer ${toHex(transfer.leafIndex)} is not under the root`);
    }
    sum += transfer.value;
  }
  if (sum !== inputs.value) throw new FalseWithdrawStatementError("the values do not sum to the withdrawn value");
}
