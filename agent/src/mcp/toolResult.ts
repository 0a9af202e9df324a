import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A tool's successful answer: one sentence for the model, then the data as JSON. */
export function toolResult(summary: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: `${summary}\n${JSON.stringify(data)}` }], structuredContent: data };
}

/**
 * A refusal or failure as a tool error: the agent's reason code (snake_case, stable) and a sentence a model
 * can relay to its user, plus any ids it needs to act on (e.g. the payment id to re-send).
 */
export function toolError(reason: string, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  const data = { reason, message, ...extra };
  return { isError: true, content: [{ type: "text", text: `${reason}: ${message}\n${JSON.stringify(data)}` }], structuredContent: data };
}
