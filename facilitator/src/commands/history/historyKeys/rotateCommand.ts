/**
 * The `history-keys rotate` command's definition: its path, usage and options, light enough that help and
 * usage load no scheme. The work is `runHistoryKeysRotate` in `rotate.ts`, imported when the command runs.
 */
import { Command, Option, UsageError } from "../../clipanion.js";

/** The `history-keys rotate` command. */
export class HistoryKeysRotateCommand extends Command {
  static override paths = [["history-keys", "rotate"]];

  static override usage = Command.Usage({
    description: "add a new proof issuer key to the manifest and make it the signing key",
    details: `
      Reads the key folder written by \`history-keys init\` (root key, issuer key, manifest, trust anchor; the manifest must verify against the anchor), moves \`issuer-key.pem\` aside as \`issuer-key.<key id>.pem\`, writes a new \`issuer-key.pem\`, adds it to the manifest and re-signs the manifest with the root key. The old key stays listed, so its proofs keep verifying. Restart the daemon and re-distribute \`manifest.json\` afterwards.

      \`--revoke-previous\` also sets \`revoked_at\` on the old key, for a compromised key: its proofs then verify as REVOKED for any time after now.
    `,
    examples: [
      ["Routine rotation", "$0 history-keys rotate --dir /etc/facilitator/history-keys"],
      ["Replace a compromised key", "$0 history-keys rotate --dir /etc/facilitator/history-keys --revoke-previous"],
    ],
  });

  dir = Option.String("--dir", { required: true, description: "the key folder written by history-keys init" });

  revokePrevious = Option.Boolean("--revoke-previous", false, { description: "also revoke the replaced key now (compromise)" });

  json = Option.Boolean("--json", false, { description: "print one JSON object describing the change" });

  override async execute(): Promise<number> {
    if (this.dir.trim() === "") throw new UsageError("--dir needs a folder");
    const { runHistoryKeysRotate } = await import("./rotate.js");
    const result = await runHistoryKeysRotate({ dir: this.dir, revokePrevious: this.revokePrevious });
    this.context.stdout.write(
      this.json
        ? `${JSON.stringify(result)}\n`
        : `✓ issuer key ${result.newKeyId} added (manifest sequence ${result.sequence}); ${result.previousKeyId} ${result.previousRevoked ? "revoked" : "kept listed"}, its key file moved to ${result.previousKeyFile}\n`,
    );
    return 0;
  }
}
