import { UsageError } from "./clipanion.js";

/** Parses a command's `<url>` argument; a malformed or non-http(s) URL is a usage mistake. */
export function parseUrlArgument(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`not a URL: ${JSON.stringify(value.slice(0, 80))} (expected http://host[:port]/path)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError("only http:// and https:// URLs can be paid");
  return url;
}
