/** Errors of starting the local stack. */
import { BaseError } from "../errors.js";

/** The services of the stack that listen on a port of their own. */
export type StackService = "anvil" | "indexer" | "decider";

/**
 * A service of the stack could not bind its port: another program holds it. `make stack` checks its ports
 * first, so there this means the port was taken in between; `service` says which variable to move.
 */
export class StackPortInUseError extends BaseError {
  override name = "StackPortInUseError";

  constructor(
    readonly service: StackService,
    readonly port: number,
    cause: unknown,
  ) {
    super(`port ${port} (${service}) is in use`, { cause });
  }
}
