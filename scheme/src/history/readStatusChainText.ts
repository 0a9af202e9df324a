/**
 * Reads a status chain file: JSON lines (the facilitator's `status-chain.jsonl`, one status per line) or a
 * JSON array. Text that is neither comes back as the text itself, so the verifier reports the chain as
 * unverifiable (`STATUS_UNKNOWN`) instead of the caller having to handle a parse error.
 *
 * @example
 * const statusChain = readStatusChainText(await readFile("status-chain.jsonl", "utf8"));
 */
export function readStatusChainText(text: string): unknown {
  const trimmed = text.trim();
  try {
    if (trimmed.startsWith("[")) return JSON.parse(trimmed);
    return trimmed
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line): unknown => JSON.parse(line));
  } catch {
    return text;
  }
}
