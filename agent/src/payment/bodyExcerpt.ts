/** Characters of a provider's explanation a text line shows; the rest is cut and marked with `…`. */
export const BODY_EXCERPT_LIMIT = 200;

/**
 * A bounded, printable excerpt of a response body for a one-line message: control and format characters
 * (escape sequences, bidi overrides, NUL) become spaces so a hostile body cannot repaint or reorder the
 * terminal, whitespace runs collapse, and at most `BODY_EXCERPT_LIMIT` characters are kept. `undefined`
 * when nothing printable is left.
 */
export function bodyExcerpt(body: string): string | undefined {
  const printable = body
    .replace(/[\p{C}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (printable === "") return undefined;
  const characters = [...printable];
  return characters.length <= BODY_EXCERPT_LIMIT ? printable : `${characters.slice(0, BODY_EXCERPT_LIMIT).join("").trimEnd()}…`;
}
