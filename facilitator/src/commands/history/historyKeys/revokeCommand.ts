/**
 * The `history-keys revoke` command's definition: its path, usage and options, light enough that help and
 * usage load no scheme. The work is `runHistoryKeysRevoke` in `revoke.ts`, imported when the command runs.
 */
import { Command, Option, UsageError } from "../../clipanion.js";
import { parseTimeOption } from "../../parseTimeOption.js";

/** The `history-keys revoke` command. */
export class HistoryKeysRevokeCommand extends Command {
  static override paths = [["history-keys", "revoke"]];

  static override usage = Command.Usage({
    description: "revoke a proof issuer key in the manifest",
    details: `
      Sets \`revoked_at\` on the key and re-signs \`manifest.json\` with the root key of \`--dir\`. A revoked key stays listed: proofs it signed earlier still verify as VALID_AT_ISSUANCE, but a current-status check after \`revoked_at\` gives REVOKED. If the daemon still signs with this key it will refuse to start: rotate first. Re-distribute \`manifest.json\` afterwards.
    `,
    examples: [
      ["Revoke now", "$0 history-keys revoke --dir /etc/facilitator/history-keys --key-id issuer-1a2b3c4d"],
      ["Revoke from a past instant", "$0 history-keys revoke --dir /etc/facilitator/history-keys --key-id issuer-1a2b3c4d --at 2030-01-01T00:00:00Z"],
    ],
  });

  dir = Option.String("--dir", { required: true, description: "the key folder written by history-keys init" });

  keyId = Option.String("--key-id", { required: true, description: "id of the issuer key to revoke, as listed in manifest.json" });

  at = Option.String("--at", { description: "when the revocation takes effect: RFC 3339 time or unix seconds (default now)" });

  json = Option.Boolean("--json", false, { description: "print one JSON object describing the change" });

  override async execute(): Promise<number> {
    if (this.dir.trim() === "") throw new UsageError("--dir needs a folder");
    const { runHistoryKeysRevoke } = await import("./revoke.js");
    const result = await runHistoryKeysRevoke({
      dir: this.dir,
      keyId: this.keyId,
      atSeconds: this.at === undefined ? undefined : parseTimeOption(this.at, "--at"),
    });
    this.context.stdout.write(
      this.json ? `${JSON.stringify(result)}\n` : `✓ issuer key ${result.keyId} revoked at ${result.revokedAt} (manifest sequence ${result.sequence})\n`,
    );
    return 0;
  }
}
