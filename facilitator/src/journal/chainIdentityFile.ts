/**
 * The journal's chain identity, in `<journal>.chain` beside it: written once, by the first daemon that runs on
 * the journal, and never rewritten. Beside the journal rather than in it because compaction rewrites the
 * journal, and a record every compaction had to carry forward is one more way to lose it.
 */
import { link, open, readFile, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { type ChainIdentity, ChainIdentitySchema } from "../chain/chainIdentity.js";
import { InvalidChainIdentityFileError } from "./errors.js";

/** The identity file of the journal at `journalPath`. */
export const chainIdentityPath = (journalPath: string): string => `${journalPath}.chain`;

/**
 * Records `identity` for the journal at `journalPath` if none is recorded, and resolves to the recorded one
 * (which the caller compares): the file appears whole or not at all (a fsynced sibling, hard-linked in place).
 */
export async function claimChainIdentityFile(journalPath: string, identity: ChainIdentity): Promise<ChainIdentity> {
  const path = chainIdentityPath(journalPath);
  const recorded = await readRecorded(path);
  if (recorded !== undefined) return recorded;
  const sibling = `${path}.${process.pid}.tmp`;
  const handle = await open(sibling, "w");
  try {
    await handle.writeFile(`${JSON.stringify(identity)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(sibling, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(sibling).catch(() => undefined);
  }
  const folder = await open(dirname(path), "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
  return (await readRecorded(path)) ?? identity;
}

/** The identity recorded for the journal at `journalPath`, if any. */
export function readChainIdentityFile(journalPath: string): Promise<ChainIdentity | undefined> {
  return readRecorded(chainIdentityPath(journalPath));
}

async function readRecorded(path: string): Promise<ChainIdentity | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new InvalidChainIdentityFileError({ path, cause });
  }
  const parsed = ChainIdentitySchema.safeParse(json);
  if (!parsed.success) throw new InvalidChainIdentityFileError({ path, cause: parsed.error });
  return parsed.data;
}
