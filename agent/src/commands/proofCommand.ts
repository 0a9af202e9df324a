import { Command, Option } from "./clipanion.js";

/** `proof <paymentId>`: obtain a signed proof of one payment, save it, and verify it offline. */
export class ProofCommand extends Command {
  static override paths = [["proof"]];

  static override usage = Command.Usage({
    description: "obtain a signed proof of a payment, save it and verify it offline",
    details: `
      Logs in to the facilitator at \`SVC_FACILITATOR_URL\` as the payer (signed with \`SVC_PAYER_PK\`), asks it to issue a proof of the payment (its id as \`pay\`, \`ledger\` and \`history\` print it, or the facilitator's 0x… payment id; a malformed or unknown id exits 2), saves \`proof.json\`, \`manifest.json\` and \`status-chain.jsonl\` into \`--out\`, then verifies the saved files offline against \`--trust-anchor\` (the issuer's trust anchor, obtained out of band, never from the facilitator's answer).

      Prints \`RESULT: reason\` (\`--json\`: one object). Exit code 0 for \`VALID_NOW\` or \`VALID_AT_ISSUANCE\`, 1 for any other result or when the facilitator refuses.
    `,
    examples: [["Prove a payment", "$0 proof 3f9a0c1b2d4e --out ./proof --trust-anchor ./trust-anchor.json"]],
  });

  paymentId = Option.String({ name: "paymentId" });

  out = Option.String("--out", { required: true, description: "folder to save proof.json, manifest.json and status-chain.jsonl into (created if missing)" });

  trustAnchor = Option.String("--trust-anchor", { required: true, description: "the issuer's trust anchor file, obtained out of band" });

  json = Option.Boolean("--json", false, { description: "print one JSON object instead of text" });

  override async execute(): Promise<number> {
    // The implementation, and the cryptography and chain clients behind it, load only when this command runs.
    const { runProof } = await import("./proof.js");
    return runProof(this);
  }
}
