import { appendFile, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CorruptJournalError } from "./errors.js";
import { openJsonlFile } from "./jsonlFile.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "jsonl-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openJsonlFile", () => {
  it("creates the file and its folder, and reads back what was appended", async () => {
    const path = join(dir, "nested", "journal.jsonl");
    const file = await openJsonlFile(path);
    expect(file.lines).toEqual([]);
    await Promise.all([file.append({ n: 1, big: 10n }), file.append({ n: 2 })]);
    await file.close();
    expect(await readFile(path, "utf8")).toBe('{"n":1,"big":"10"}\n{"n":2}\n');
    const again = await openJsonlFile(path);
    expect(again.lines).toEqual([{ n: 1, big: "10" }, { n: 2 }]);
    await again.close();
  });

  it("reports a torn last line, cuts it off, and appends on a clean line", async () => {
    const path = join(dir, "journal.jsonl");
    await writeFile(path, '{"n":1}\n{"n":2}\n{"n":');
    const file = await openJsonlFile(path);
    expect(file.lines).toEqual([{ n: 1 }, { n: 2 }]);
    expect(file.tornLine).toEqual({ lineNumber: 3, bytes: 5 });
    await file.append({ n: 3 });
    await file.close();
    expect(await readFile(path, "utf8")).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it("writes appends made while the file is busy together, in call order, with one fsync for them", async () => {
    const path = join(dir, "journal.jsonl");
    const file = await openJsonlFile(path);
    const probe = await open(join(dir, "probe"), "a");
    const sync = vi.spyOn(Object.getPrototypeOf(probe) as { sync: () => Promise<void> }, "sync");
    await probe.close();
    try {
      // Made before the first one's write starts: all four calls share its write.
      await Promise.all([file.append({ n: 1 }), file.append({ n: 2 }), file.appendMany([{ n: 3 }, { n: 4 }]), file.append({ n: 5 })]);
      expect(sync).toHaveBeenCalledTimes(1);
      await Promise.all([file.append({ n: 6 }), file.append({ n: 7 })]);
      expect(sync).toHaveBeenCalledTimes(2);
    } finally {
      sync.mockRestore();
    }
    await file.close();
    expect((await readFile(path, "utf8")).trim().split("\n")).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `{"n":${n}}`));
  });

  it("never puts an append made after a replace into the file the replace swaps out", async () => {
    const path = join(dir, "journal.jsonl");
    const file = await openJsonlFile(path);
    await Promise.all([file.append({ n: 1 }), file.replace([{ n: 9 }]), file.append({ n: 2 })]);
    await file.close();
    expect(await readFile(path, "utf8")).toBe('{"n":9}\n{"n":2}\n');
  });

  it("refuses a damaged complete line with its line number", async () => {
    const path = join(dir, "journal.jsonl");
    await writeFile(path, '{"n":1}\nnot json\n');
    await appendFile(path, '{"n":3}\n');
    await expect(openJsonlFile(path)).rejects.toThrow(CorruptJournalError);
    await expect(openJsonlFile(path)).rejects.toThrow(/line 2/);
  });
});
