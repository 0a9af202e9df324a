/** Errors of starting and stopping the local anvil node. */
import { BaseError } from "../errors.js";

/** The anvil binary of the npm package `@foundry-rs/anvil-linux-amd64` could not be located. */
export class AnvilBinaryNotFoundError extends BaseError {
  override name = "AnvilBinaryNotFoundError";

  constructor(cause: unknown) {
    super("The anvil binary from @foundry-rs/anvil-linux-amd64 was not found; run npm ci.", { cause });
  }
}

/** anvil exited, timed out or answered wrongly before it was ready; `output` holds its last log lines. */
export class AnvilStartError extends BaseError {
  override name = "AnvilStartError";
  /** The last lines anvil printed, for diagnosis. */
  readonly output: readonly string[];

  constructor(reason: string, output: readonly string[], cause?: unknown) {
    super(`anvil did not start: ${reason}.`, { metaMessages: output.length > 0 ? ["anvil output:", ...output] : [], cause });
    this.output = output;
  }
}

/** anvil could not bind its port: another program listens there. */
export class AnvilPortInUseError extends AnvilStartError {
  override name = "AnvilPortInUseError";

  constructor(
    readonly port: number,
    output: readonly string[],
  ) {
    super(`port ${port} is in use`, output);
  }
}
