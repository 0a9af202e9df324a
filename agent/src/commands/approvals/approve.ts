import { Command, Option } from "../clipanion.js";

/** `approvals approve <id>`: lets a waiting agent pay. */
export class ApprovalsApproveCommand extends Command {
  static override paths = [["approvals", "approve"]];

  static override usage = Command.Usage({
    description: "approve a pending payment",
    details: "Writes the decision atomically; the waiting agent pays at once. The first decision wins; exit 1 when nothing is pending under the id.",
    examples: [["Approve payment 3f9a0c1b2d4e", "$0 approvals approve 3f9a0c1b2d4e"]],
  });

  id = Option.String({ name: "id" });

  override async execute(): Promise<number> {
    // The ledger and approval store behind the decision load only when this command runs.
    const { decide } = await import("./decide.js");
    return decide(this, this.id, "approved");
  }
}
