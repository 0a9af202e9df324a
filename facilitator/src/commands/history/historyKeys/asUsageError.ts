import { BaseError } from "../../../errors/base.js";
import { UsageError } from "../../clipanion.js";

/** Runs `run`, turning a named refusal (unknown or already revoked key, bad time) into a usage mistake (exit 2). */
export function asUsageError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof BaseError) throw new UsageError(error.shortMessage);
    throw error;
  }
}
