/** The dry JSON-lines read behind the journal and history probes, over text and a small schema. */
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { checkJsonLines } from "./checkJsonLines.js";

const RecordSchema = z.object({ type: z.literal("entry") });

describe("checkJsonLines", () => {
  it("counts the records, skips blank lines and loads an empty file", () => {
    expect(checkJsonLines('{"type":"entry"}\n\n{"type":"entry"}\n', RecordSchema)).toEqual({ ok: true, records: 2, tornLineNumber: undefined });
    expect(checkJsonLines("", RecordSchema)).toEqual({ ok: true, records: 0, tornLineNumber: undefined });
  });

  it("names an unterminated last line as torn, by its line number, without reading it", () => {
    expect(checkJsonLines('{"type":"entry"}\n{"type":"en', RecordSchema)).toEqual({ ok: true, records: 1, tornLineNumber: 2 });
  });

  it("stops at the first line that is not JSON or not a record, by its line number", () => {
    expect(checkJsonLines('{"type":"entry"}\nnot json\n{"type":"other"}\n', RecordSchema)).toEqual({ ok: false, problem: "not_json", lineNumber: 2 });
    expect(checkJsonLines('\n{"type":"other"}\nnot json\n', RecordSchema)).toEqual({ ok: false, problem: "not_a_record", lineNumber: 2 });
  });
});
