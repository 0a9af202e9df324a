/**
 * The `verify-proof` command's definition: its path, usage and options, light enough that help and usage
 * load no scheme. The work is `runVerifyProof` in `verifyProof.ts`, imported when the command runs.
 */
import { Command, Option } from "../clipanion.js";
import { parseTimeOption } from "../parseTimeOption.js";

/** The `verify-proof` command: prints `RESULT: reason` and exits 0 for a holding proof, 1 otherwise. */
export class VerifyProofCommand extends Command {
  static override paths = [["verify-proof"]];

  static override usage = Command.Usage({
    description: "verify a payment proof offline from its artifacts",
    details: `
      Checks the manifest against the trust anchor (which you must have obtained out of band, never from whoever handed you the proof), the proof's signature and its key's validity at issuance, its expiry, and, with \`--status-chain\`, the signed status chain. Prints one of VALID_AT_ISSUANCE, VALID_NOW, REVOKED, STATUS_UNKNOWN, EXPIRED or INVALID with a reason. Uses no network.

      Exits 0 for VALID_NOW and VALID_AT_ISSUANCE, 1 for the others, 2 for usage mistakes (such as an unreadable file).
    `,
    examples: [
      ["Was it valid when issued?", "$0 verify-proof --proof proof.json --manifest manifest.json --trust-anchor trust-anchor.json"],
      ["Is it valid now?", "$0 verify-proof --proof proof.json --manifest manifest.json --trust-anchor trust-anchor.json --status-chain status-chain.jsonl"],
      [
        "Was it valid at a given time?",
        "$0 verify-proof --proof proof.json --manifest manifest.json --trust-anchor trust-anchor.json --status-chain status-chain.jsonl --at 2030-06-01T00:00:00Z",
      ],
    ],
  });

  proof = Option.String("--proof", { required: true, description: "path of proof.json" });

  manifest = Option.String("--manifest", { required: true, description: "path of the issuer key manifest (manifest.json)" });

  trustAnchor = Option.String("--trust-anchor", { required: true, description: "path of the trust anchor, obtained out of band" });

  statusChain = Option.String("--status-chain", { description: "path of the status chain (status-chain.jsonl, or a JSON array) for a current-status answer" });

  at = Option.String("--at", { description: "verification time: RFC 3339 with a zone, or unix seconds (default now)" });

  json = Option.Boolean("--json", false, { description: "print one JSON object `{ result, reason }`" });

  override async execute(): Promise<number> {
    const { PASSING_PROOF_RESULTS, runVerifyProof } = await import("./verifyProof.js");
    const verification = await runVerifyProof({
      proofPath: this.proof,
      manifestPath: this.manifest,
      trustAnchorPath: this.trustAnchor,
      statusChainPath: this.statusChain,
      atSeconds: this.at === undefined ? undefined : parseTimeOption(this.at, "--at"),
    });
    this.context.stdout.write(
      this.json ? `${JSON.stringify({ result: verification.result, reason: verification.reason })}\n` : `${verification.result}: ${verification.reason}\n`,
    );
    return PASSING_PROOF_RESULTS.includes(verification.result) ? 0 : 1;
  }
}
