import { mkdir, writeFile } from "node:fs/promises";

import { HistoryRequestError, type PaymentProofVerification } from "@svc/scheme";

import type { Policy } from "../policy/policy.js";
import { PaymentNotRecordedError } from "./errors.js";
import type { HistoryConfig } from "./loadHistoryConfig.js";
import { openPayerHistory } from "./openPayerHistory.js";
import { type ProofFiles, proofFilesIn } from "./proofFiles.js";
import { verifyProofFiles } from "./verifyProofFiles.js";

/** Inputs to `fetchPaymentProof`. */
export type FetchPaymentProofParameters = {
  policy: Policy;
  config: HistoryConfig;
  paymentId: string;
  /** Folder to save `proof.json`, `manifest.json` and `status-chain.jsonl` into (created if missing). */
  outDir: string;
  /** Path of the trust anchor, obtained out of band; the proof is checked against it after saving. */
  trustAnchor: string;
  fetch?: typeof fetch | undefined;
};

/** What `fetchPaymentProof` did: the proof's id, where it saved the artifacts, and the offline verdict. */
export type FetchPaymentProofReturnType = { proofId: string; files: ProofFiles; verification: PaymentProofVerification };

/**
 * Logs in as the payer, asks the facilitator to issue a proof of `paymentId`, saves the three artifacts into
 * `outDir`, then verifies the saved files offline against the trust anchor: the facilitator's answer is not
 * trusted, only what verifies.
 *
 * @example
 * const { verification } = await fetchPaymentProof({ policy, config, paymentId, outDir: "proof", trustAnchor: "trust-anchor.json" });
 */
export async function fetchPaymentProof(parameters: FetchPaymentProofParameters): Promise<FetchPaymentProofReturnType> {
  const { client, token } = await openPayerHistory(parameters);
  let issued;
  try {
    issued = await client.issueProof(token, parameters.paymentId);
  } catch (error) {
    if (error instanceof HistoryRequestError && error.failure.kind === "refused" && error.failure.status === 404)
      throw new PaymentNotRecordedError({ paymentId: parameters.paymentId });
    throw error;
  }
  await mkdir(parameters.outDir, { recursive: true });
  const files = proofFilesIn(parameters.outDir);
  await writeFile(files.proof, `${JSON.stringify(issued.proof, null, 2)}\n`);
  await writeFile(files.manifest, `${JSON.stringify(issued.manifest, null, 2)}\n`);
  await writeFile(files.statusChain, issued.statusChain.map((status) => `${JSON.stringify(status)}\n`).join(""));
  const verification = await verifyProofFiles({ ...files, trustAnchor: parameters.trustAnchor });
  return { proofId: issued.proofId, files, verification };
}
