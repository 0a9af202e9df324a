/**
 * A dry read of a JSON-lines file for the `check` probes, by the rules `start` opens it with
 * (`journal/jsonlFile.ts`): blank lines are skipped, an unterminated last line is torn and would be cut off,
 * and every other line must be JSON and one record of the file's schema. It reads text only: the probes never
 * open, repair or lock the file itself.
 */
import type { z } from "zod";

/** The first line that would stop `start`, or how many records load and where a torn last line is. */
export type JsonLinesCheck =
  | { ok: false; problem: "not_json" | "not_a_record"; lineNumber: number }
  | { ok: true; records: number; tornLineNumber: number | undefined };

/**
 * Checks JSON-lines `text` against `schema`, stopping at the first bad line.
 *
 * @example
 * const loaded = checkJsonLines(await readFile(journal, "utf8"), JournalRecordSchema);
 * if (!loaded.ok) list.fail(`line ${loaded.lineNumber} is ${loaded.problem === "not_json" ? "not JSON" : "not a record"}`);
 */
export function checkJsonLines(text: string, schema: z.ZodType): JsonLinesCheck {
  const lines = text.split("\n");
  const torn = lines.pop() !== "";
  let records = 0;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, problem: "not_json", lineNumber: index + 1 };
    }
    if (!schema.safeParse(value).success) return { ok: false, problem: "not_a_record", lineNumber: index + 1 };
    records++;
  }
  return { ok: true, records, tornLineNumber: torn ? lines.length + 1 : undefined };
}
