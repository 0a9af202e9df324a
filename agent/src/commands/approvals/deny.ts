import { Command, Option } from "../clipanion.js";

/** `approvals deny <id>`: makes a waiting agent decline. */
export class ApprovalsDenyCommand extends Command {
  static override paths = [["approvals", "deny"]];

  static override usage = Command.Usage({
    description: "deny a pending payment",
    details: "Writes the decision atomically; the waiting agent declines and exits 4. The first decision wins; exit 1 when nothing is pending under the id.",
    examples: [["Deny payment 3f9a0c1b2d4e", "$0 approvals deny 3f9a0c1b2d4e"]],
  });

  id = Option.String({ name: "id" });

  override async execute(): Promise<number> {
    // The ledger and approval store behind the decision load only when this command runs.
    const { decide } = await import("./decide.js");
    return decide(this, this.id, "denied");
  }
}
