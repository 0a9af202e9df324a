/**
 * A `node --import` hook that appends the URL of every module the process loads, one per line, to the file
 * named by `RECORD_MODULES_TO`: ES modules as they resolve (in Node's hooks thread) and CommonJS modules from
 * the `require` cache at exit. Tests use it to prove what a command line does not load.
 */
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";

const target = process.env.RECORD_MODULES_TO;

if (isMainThread && target !== undefined) {
  register(import.meta.url);
  const { cache } = createRequire(import.meta.url);
  process.on("exit", () => {
    const loaded = Object.keys(cache).map((path) => pathToFileURL(path).href);
    if (loaded.length > 0) appendFileSync(target, `${loaded.join("\n")}\n`);
  });
}

/** Node's resolve hook: records each resolved URL and changes nothing. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (target !== undefined) appendFileSync(target, `${resolved.url}\n`);
  return resolved;
}
