/** `STACK_PROTOCOL` of `make stack`: `v1` or `v2` (default), the zERC20 version the stack deploys and indexes. */
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from "@svc/scheme";
import { BaseError } from "../errors.js";

const SHORT_NAMES = new Map<string, ProtocolVersion>([
  ["v1", "zerc20-v1"],
  ["v2", "zerc20-v2"],
]);

/** `STACK_PROTOCOL` holds something other than `v1` or `v2`. */
export class InvalidStackProtocolError extends BaseError {
  override name = "InvalidStackProtocolError";
  constructor(readonly value: string) {
    super(`STACK_PROTOCOL must be v1 or v2, got "${value}"`);
  }
}

/** The version `raw` names; unset or empty means the deployed version, `zerc20-v2`. */
export function parseStackProtocol(raw: string | undefined): ProtocolVersion {
  if (raw === undefined || raw === "") return DEFAULT_PROTOCOL_VERSION;
  const protocol = SHORT_NAMES.get(raw);
  if (protocol === undefined) throw new InvalidStackProtocolError(raw);
  return protocol;
}
