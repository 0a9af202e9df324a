import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

import { writeFileDurably } from "./writeFileDurably.js";

let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("writeFileDurably", () => {
  it("creates once in exclusive mode and refuses to overwrite, keeping the first content", async () => {
    dir = await mkdtemp(join(tmpdir(), "write-durably-"));
    const path = join(dir, "key.pem");
    await writeFileDurably(path, "first", { mode: 0o600, exclusive: true });
    await expect(writeFileDurably(path, "second", { mode: 0o600, exclusive: true })).rejects.toMatchObject({ code: "EEXIST" });
    expect(await readFile(path, "utf8")).toBe("first");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("replaces a file whole through a temporary file it does not leave behind", async () => {
    dir = await mkdtemp(join(tmpdir(), "write-durably-"));
    const path = join(dir, "manifest.json");
    await writeFileDurably(path, "old", { mode: 0o644, exclusive: false });
    await writeFileDurably(path, "new", { mode: 0o644, exclusive: false });
    expect(await readFile(path, "utf8")).toBe("new");
    expect(await readdir(dir)).toEqual(["manifest.json"]);
  });
});
