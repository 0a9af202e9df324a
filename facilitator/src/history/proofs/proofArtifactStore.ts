/**
 * The filesystem export of proofs under `HISTORY_ARTIFACT_PATH`, one folder per proof id:
 * - `proof.json`: the signed proof, written once (exclusive create) and never modified;
 * - `manifest.json`: the issuer key manifest in force, refreshed when a status is appended (a newer manifest
 *   may list the key that signed the newer status);
 * - `status-chain.jsonl`: the signed status chain, one artifact per line, append-only and fsynced.
 * This is an export for the operator to hand over; proofs have no hosted registry, delivery or retention.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type IssuerManifest, type PaymentProof, type ProofStatus, readStatusChainText } from "@svc/scheme";

import { openJsonlFile } from "../../journal/jsonlFile.js";
import { writeFileDurably } from "./writeFileDurably.js";

/** File names inside a proof's folder. */
export const PROOF_FILE = "proof.json";
/** The manifest copy inside a proof's folder. */
export const MANIFEST_FILE = "manifest.json";
/** The status chain inside a proof's folder. */
export const STATUS_CHAIN_FILE = "status-chain.jsonl";

/** Reads and writes proof folders. */
export type ProofArtifactStore = {
  /** The folder of a proof. */
  folder: (proofId: string) => string;
  /** Exports a new proof with its first status; fails if the folder already holds a proof. */
  writeIssued: (proof: PaymentProof, manifest: IssuerManifest, first: ProofStatus) => Promise<void>;
  /** The exported proof, as read (unparsed). */
  readProof: (proofId: string) => Promise<unknown>;
  /** The exported status chain, as read (unparsed). */
  readStatusChain: (proofId: string) => Promise<unknown>;
  /** Appends a status and refreshes the manifest copy. */
  appendStatus: (proofId: string, status: ProofStatus, manifest: IssuerManifest) => Promise<void>;
};

/** The store rooted at `root` (`HISTORY_ARTIFACT_PATH`). Proof ids are 32 hex digits, so they are safe folder names. */
export function createProofArtifactStore(root: string): ProofArtifactStore {
  const folder = (proofId: string) => join(root, proofId);
  const appendLine = async (proofId: string, status: ProofStatus) => {
    const chain = await openJsonlFile(join(folder(proofId), STATUS_CHAIN_FILE));
    try {
      await chain.append(status);
    } finally {
      await chain.close();
    }
  };
  return {
    folder,
    writeIssued: async (proof, manifest, first) => {
      const proofId = proof.payload.proof_id;
      await writeJson(join(folder(proofId), PROOF_FILE), proof, { exclusive: true });
      await writeJson(join(folder(proofId), MANIFEST_FILE), manifest, { exclusive: false });
      await appendLine(proofId, first);
    },
    readProof: async (proofId) => JSON.parse(await readFile(join(folder(proofId), PROOF_FILE), "utf8")),
    readStatusChain: async (proofId) => readStatusChainText(await readFile(join(folder(proofId), STATUS_CHAIN_FILE), "utf8")),
    appendStatus: async (proofId, status, manifest) => {
      await appendLine(proofId, status);
      await writeJson(join(folder(proofId), MANIFEST_FILE), manifest, { exclusive: false });
    },
  };
}

/** Writes pretty JSON durably into a proof's folder, creating the folder first. */
async function writeJson(path: string, value: unknown, { exclusive }: { exclusive: boolean }): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFileDurably(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o644, exclusive });
}
