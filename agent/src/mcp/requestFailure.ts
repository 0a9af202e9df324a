import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

import { describeError } from "../errors/describeError.js";
import { HostNotAllowedError } from "../http/errors.js";
import { toolError } from "./toolResult.js";

/** A request that could not run (unreachable, interrupted, a broken ledger) as a tool error; nothing was paid that is not in the ledger. */
export function requestFailure(error: unknown): CallToolResult {
  return toolError(errorReason(error), describeError(error));
}

/** The reason code of an error that ended a tool call: the policy's for a refused host, else the error's name in snake_case. */
export function errorReason(error: unknown): string {
  if (error instanceof HostNotAllowedError) return "host_not_allowed";
  const name = error instanceof Error ? error.name.replace(/Error$/, "") : "unexpected";
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase() || "unexpected";
}
