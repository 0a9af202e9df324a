import { createRequire } from "node:module";

import { CanonicalJsonError } from "./errors.js";
import { findJsonBoundsViolation } from "./jsonBounds.js";

// `canonicalize` is CommonJS whose typings declare an ES default export; under NodeNext TypeScript reads that
// default as the module object, while Node hands ESM the function itself. `require` gives the function in
// both the build and the tests, with no interop guesswork.
const canonicalize = createRequire(import.meta.url)("canonicalize") as (input: unknown) => string | undefined;

/**
 * Writes `value` as RFC 8785 (JCS) canonical JSON: sorted keys, no whitespace, ECMAScript number form. Every
 * history artifact is signed and hashed over this form, so two parties that parse and re-serialise the same
 * artifact (pretty-printed, keys reordered) still agree on its bytes. A value nested deeper than
 * `MAX_JSON_DEPTH` or holding a non-finite number is refused with `CanonicalJsonError` before serialising.
 *
 * @example
 * canonicalJson({ b: 1, a: "x" }); // '{"a":"x","b":1}'
 */
export function canonicalJson(value: unknown): string {
  const violation = findJsonBoundsViolation(value);
  if (violation !== undefined) throw new CanonicalJsonError({ reason: violation });
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (cause) {
    throw new CanonicalJsonError({ cause });
  }
  if (text === undefined) throw new CanonicalJsonError();
  return text;
}
