import { Command, Option } from "../clipanion.js";

/** `proof verify`: check a saved proof offline; needs no key, no facilitator and no network. */
export class ProofVerifyCommand extends Command {
  static override paths = [["proof", "verify"]];

  static override usage = Command.Usage({
    description: "verify a saved payment proof offline (no network)",
    details: `
      Checks the proof against the manifest, the manifest against the trust anchor (obtained out of band) and, with \`--status-chain\`, the proof's current status, at \`--at\` (default now). Reads only the given files; nothing is sent anywhere and no \`SVC_*\` variable is needed.

      Prints \`RESULT: reason\` (\`--json\`: one object) where RESULT is one of INVALID, EXPIRED, VALID_AT_ISSUANCE (no status chain given), STATUS_UNKNOWN, VALID_NOW, REVOKED. Exit code 0 for \`VALID_NOW\` or \`VALID_AT_ISSUANCE\`, 1 otherwise.
    `,
    examples: [
      ["Valid now?", "$0 proof verify --proof proof.json --manifest manifest.json --trust-anchor trust-anchor.json --status-chain status-chain.jsonl"],
      ["Valid when issued?", "$0 proof verify --proof proof.json --manifest manifest.json --trust-anchor trust-anchor.json"],
    ],
  });

  proof = Option.String("--proof", { required: true, description: "the proof file (proof.json)" });

  manifest = Option.String("--manifest", { required: true, description: "the issuer key manifest (manifest.json)" });

  trustAnchor = Option.String("--trust-anchor", { required: true, description: "the issuer's trust anchor, obtained out of band" });

  statusChain = Option.String("--status-chain", {
    description: "the proof's status chain (status-chain.jsonl); without it only validity at issuance is checked",
  });

  at = Option.String("--at", { description: "when to evaluate, RFC 3339 (e.g. 2030-06-01T00:00:00Z); default now" });

  json = Option.Boolean("--json", false, { description: "print one JSON object instead of text" });

  override async execute(): Promise<number> {
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runProofVerify } = await import("./verify.js");
    return runProofVerify(this);
  }
}
