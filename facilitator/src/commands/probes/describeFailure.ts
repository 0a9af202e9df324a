/**
 * A one-line, secret-free reason for a failed network call. viem and fetch errors quote the request URL
 * (which can carry an RPC provider's API key) and sometimes the request body, so their messages are never
 * printed; only a timeout, an HTTP status, a system error code or a revert is named.
 */

/** Describes why a call to a remote endpoint failed, in a few words and without any text from the error itself. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  for (const item of causeChain(error)) {
    const name = errorName(item);
    if (name === "TimeoutError" || name === "AbortError") return `no answer within ${timeoutMs} ms`;
    const status = numberField(item, "status");
    if (status !== undefined) return `HTTP ${status}`;
    const code = stringField(item, "code");
    if (code !== undefined && /^E[A-Z0-9_]+$/.test(code)) return code;
    if (name === "ContractFunctionRevertedError" || name === "CallExecutionError") return "the call reverted";
  }
  const name = errorName(error);
  return name === undefined ? "request failed" : `request failed (${name})`;
}

/** The error and its causes (and the members of an AggregateError), nearest first, bounded against cycles. */
function causeChain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.length < 16) {
    const item = queue.shift();
    if (item === undefined || item === null || seen.includes(item)) continue;
    seen.push(item);
    if (typeof item !== "object") continue;
    if ("cause" in item) queue.push(item.cause);
    if ("errors" in item && Array.isArray(item.errors)) queue.push(...item.errors);
  }
  return seen;
}

function errorName(item: unknown): string | undefined {
  return stringField(item, "name");
}

function stringField(item: unknown, field: string): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const value: unknown = Reflect.get(item, field);
  return typeof value === "string" ? value : undefined;
}

function numberField(item: unknown, field: string): number | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const value: unknown = Reflect.get(item, field);
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}
