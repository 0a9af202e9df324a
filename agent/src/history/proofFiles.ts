import { join } from "node:path";

/** The file names an exported proof uses, the same as the facilitator's `HISTORY_ARTIFACT_PATH/<proofId>/`. */
export const PROOF_FILE_NAMES = { proof: "proof.json", manifest: "manifest.json", statusChain: "status-chain.jsonl" } as const;

/** Paths of the three artifact files of one exported proof. */
export type ProofFiles = { proof: string; manifest: string; statusChain: string };

/** The artifact paths inside folder `dir`. */
export function proofFilesIn(dir: string): ProofFiles {
  return {
    proof: join(dir, PROOF_FILE_NAMES.proof),
    manifest: join(dir, PROOF_FILE_NAMES.manifest),
    statusChain: join(dir, PROOF_FILE_NAMES.statusChain),
  };
}
