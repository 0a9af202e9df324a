/**
 * The `history-keys init` command's definition: its path, usage and options, light enough that help and
 * usage load no scheme. The work is `runHistoryKeysInit` in `init.ts`, imported when the command runs.
 */
import { DEFAULT_ISSUER_ID } from "../../../history/proofs/defaultIssuerId.js";
import { Command, Option, UsageError } from "../../clipanion.js";

/** The `history-keys init` command. */
export class HistoryKeysInitCommand extends Command {
  static override paths = [["history-keys", "init"]];

  static override usage = Command.Usage({
    description: "create a proof issuer key, a signed key manifest and the trust anchor",
    details: `
      Writes \`root-key.pem\` (the root key: it signs manifests only; move it offline after this), \`issuer-key.pem\` (the daemon's proof signing key), \`manifest.json\` (the issuer key manifest signed by the root key) and \`trust-anchor.json\` (the root public key, to publish out of band) into \`--dir\`. Refuses to overwrite any of them.

      Creates the proof artifact folder (\`--artifact-dir\`, default \`<dir>/proofs\`) and prints all four variables of the proof group for the daemon: \`HISTORY_ISSUER_PRIVATE_KEY_PATH\`, \`HISTORY_ISSUER_MANIFEST_PATH\`, \`HISTORY_ISSUER_TRUST_ANCHOR_PATH\` and \`HISTORY_ARTIFACT_PATH\` (\`start\` refuses the group unless all four are set).
    `,
    examples: [
      ["Create the keys for the local stack", "$0 history-keys init --dir .stack/history-keys"],
      ["Name the issuer", "$0 history-keys init --dir /etc/facilitator/history-keys --issuer pay.example"],
    ],
  });

  dir = Option.String("--dir", { required: true, description: "folder to write the keys, manifest and trust anchor into" });

  issuer = Option.String("--issuer", { description: `issuer name written into manifest and anchor (default ${DEFAULT_ISSUER_ID})` });

  artifactDir = Option.String("--artifact-dir", { description: "folder the daemon exports proof artifacts to (default <dir>/proofs; created)" });

  json = Option.Boolean("--json", false, { description: "print one JSON object with the file paths, key ids and anchor fingerprint" });

  override async execute(): Promise<number> {
    if (this.dir.trim() === "") throw new UsageError("--dir needs a folder");
    if (this.artifactDir !== undefined && this.artifactDir.trim() === "") throw new UsageError("--artifact-dir needs a folder");
    const { runHistoryKeysInit } = await import("./init.js");
    const result = await runHistoryKeysInit({ dir: this.dir, issuer: this.issuer, artifactDir: this.artifactDir });
    if (this.json) {
      this.context.stdout.write(`${JSON.stringify(result)}\n`);
      return 0;
    }
    const { files } = result;
    this.context.stdout.write(
      [
        `✓ root key ${result.rootKeyId}: ${files.rootKey} (keep offline; needed only to rotate or revoke)`,
        `✓ issuer key ${result.issuerKeyId}: ${files.issuerKey}`,
        `✓ manifest: ${files.manifest}`,
        `✓ trust anchor: ${files.trustAnchor} (sha256 ${result.trustAnchorFingerprint}; publish it out of band)`,
        "",
        `✓ proof artifacts: ${result.artifactPath}`,
        "",
        ...Object.entries(result.environment).map(([variable, value]) => `${variable}=${value}`),
        "",
      ].join("\n"),
    );
    return 0;
  }
}
