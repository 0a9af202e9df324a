import { readFile } from "node:fs/promises";

import { type PaymentProofVerification, readStatusChainText, verifyPaymentProof } from "@svc/scheme";

/** Inputs to `verifyProofFiles`: file paths, and the instant to evaluate at. */
export type VerifyProofFilesParameters = {
  proof: string;
  manifest: string;
  /** The trust anchor, obtained out of band (never from whoever handed over the proof). */
  trustAnchor: string;
  /** The status chain (JSON lines or a JSON array); omit it to ask only about validity at issuance. */
  statusChain?: string | undefined;
  at?: Date | undefined;
};

/**
 * Verifies a payment proof offline from its files: reads them and runs the scheme's `verifyPaymentProof`.
 * No network at all. A file that is not JSON is handed to the verifier as text, so it reports `INVALID`
 * (or `STATUS_UNKNOWN` for the chain); a file that cannot be read throws the file system's error.
 *
 * @example
 * const { result, reason } = await verifyProofFiles({ proof: "proof.json", manifest: "manifest.json", trustAnchor: "anchor.json" });
 */
export async function verifyProofFiles(parameters: VerifyProofFilesParameters): Promise<PaymentProofVerification> {
  const [proof, manifest, trustAnchor, statusChain] = await Promise.all([
    readJson(parameters.proof),
    readJson(parameters.manifest),
    readJson(parameters.trustAnchor),
    parameters.statusChain === undefined ? undefined : readFile(parameters.statusChain, "utf8").then(readStatusChainText),
  ]);
  return verifyPaymentProof({ proof, manifest, trustAnchor, statusChain, at: parameters.at });
}

async function readJson(path: string): Promise<unknown> {
  const text = await readFile(path, "utf8");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
