import { open, rename } from "node:fs/promises";

/** How {@link writeFileDurably} writes: the file mode, and whether an existing file is refused or replaced. */
export type WriteFileDurablyOptions = { mode: number; exclusive: boolean };

/**
 * Writes `text` to `path` and fsyncs it before resolving. `exclusive` refuses an existing file (the open fails
 * with `EEXIST`); otherwise the text goes to `<path>.tmp` first and is renamed over `path`, so a reader never
 * sees half a file. Proof exports and the `history-keys` folder both write this way.
 *
 * @example
 * await writeFileDurably("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644, exclusive: false });
 */
export async function writeFileDurably(path: string, text: string, { mode, exclusive }: WriteFileDurablyOptions): Promise<void> {
  const target = exclusive ? path : `${path}.tmp`;
  const handle = await open(target, exclusive ? "wx" : "w", mode);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (!exclusive) await rename(target, path);
}
