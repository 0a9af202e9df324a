/**
 * One line describing an error for people: a `shortMessage` when the error has one (ours and viem's), else
 * the first line of its message. Library messages can run to many lines of request dumps; never the stack.
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const short: unknown = Reflect.get(error, "shortMessage");
    const text = typeof short === "string" && short !== "" ? short : error.message;
    return text.split("\n")[0] ?? error.name;
  }
  return String(error).split("\n")[0] ?? "unknown error";
}
