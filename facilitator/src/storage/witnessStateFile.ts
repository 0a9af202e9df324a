/**
 * The embedded adapter's {@link WitnessStatePort}: one file beside the journal, `<journal>.witnesses`, replaced
 * whole on each save (a fsynced sibling renamed over it, then the folder fsynced), so a crash leaves the old
 * state or the new one, never half of either. One process writes it, so saves are serialised here and the
 * leaf count kept in memory. With `journal = "none"` the state lives in memory and a restart follows from the
 * token's deployment again.
 */
import { open, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { syncFolder } from "../journal/jsonlFile.js";
import type { WitnessStatePort } from "./storagePorts.js";

const FileSchema = z.object({ binding: z.string(), leaves: z.string().regex(/^[0-9]+$/), state: z.string() });

/** The port over the file at `path` (`null`: memory only). */
export function witnessStateFile(path: string | null): WitnessStatePort {
  let saved: z.infer<typeof FileSchema> | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  const read = async () => {
    if (saved !== undefined || path === null) return saved;
    const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    // A file that does not parse is a state this version cannot use: the follower starts over rather than fail.
    const parsed = text === undefined ? undefined : FileSchema.safeParse(parseJson(text));
    saved = parsed?.success ? parsed.data : undefined;
    return saved;
  };

  const write = async (next: z.infer<typeof FileSchema>) => {
    if (path !== null) {
      const sibling = join(dirname(path), `.${basename(path)}.replace`);
      await rm(sibling, { force: true });
      const handle = await open(sibling, "w", 0o600);
      try {
        await handle.writeFile(JSON.stringify(next), "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(sibling, path);
      await syncFolder(dirname(path));
    }
    saved = next;
  };

  return {
    load: async (binding) => {
      const current = await read();
      return current?.binding === binding ? current.state : undefined;
    },
    save: (binding, leaves, body) => {
      const run = tail.then(async () => {
        const current = await read();
        if (current?.binding === binding && BigInt(current.leaves) > leaves) return false;
        await write({ binding, leaves: leaves.toString(), state: body });
        return true;
      });
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
