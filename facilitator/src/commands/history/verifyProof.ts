/**
 * `facilitator verify-proof --proof --manifest --trust-anchor [--status-chain] [--at]`: the offline proof
 * verifier on the command line. It reads files only: no configuration, no facilitator, no chain, no network.
 */
import { readFile } from "node:fs/promises";
import { type PaymentProofVerification, readStatusChainText, verifyPaymentProof } from "@svc/scheme";

import { UsageError } from "../clipanion.js";

/** Paths of the artifacts and the verification time. */
export type RunVerifyProofParameters = {
  proofPath: string;
  manifestPath: string;
  trustAnchorPath: string;
  statusChainPath?: string | undefined;
  /** Unix seconds; defaults to now. */
  atSeconds?: number | undefined;
};

/** The results that mean "this proof holds" (exit 0); every other result exits 1. */
export const PASSING_PROOF_RESULTS: readonly string[] = ["VALID_NOW", "VALID_AT_ISSUANCE"];

/**
 * Reads the artifacts and verifies them. An unreadable file is a usage mistake; content that is not JSON, or
 * not an artifact, is a verification result (`INVALID`, or `STATUS_UNKNOWN` for the status chain).
 *
 * @example
 * const { result, reason } = await runVerifyProof({ proofPath: "proof.json", manifestPath: "manifest.json", trustAnchorPath: "anchor.json" });
 */
export async function runVerifyProof(parameters: RunVerifyProofParameters): Promise<PaymentProofVerification> {
  const [proof, manifest, trustAnchor, statusChain] = await Promise.all([
    readFile(parameters.proofPath, "utf8").then(parseJsonOrText, unreadable("--proof", parameters.proofPath)),
    readFile(parameters.manifestPath, "utf8").then(parseJsonOrText, unreadable("--manifest", parameters.manifestPath)),
    readFile(parameters.trustAnchorPath, "utf8").then(parseJsonOrText, unreadable("--trust-anchor", parameters.trustAnchorPath)),
    parameters.statusChainPath === undefined
      ? undefined
      : readFile(parameters.statusChainPath, "utf8").then(readStatusChainText, unreadable("--status-chain", parameters.statusChainPath)),
  ]);
  return verifyPaymentProof({
    proof,
    manifest,
    trustAnchor,
    ...(statusChain === undefined ? {} : { statusChain }),
    ...(parameters.atSeconds === undefined ? {} : { at: new Date(parameters.atSeconds * 1000) }),
  });
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function unreadable(option: string, path: string) {
  return (): never => {
    throw new UsageError(`${option}: cannot read ${path}`);
  };
}
