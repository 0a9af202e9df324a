/**
 * Bounds on the JSON values the scheme hashes or signs. `JSON.parse` accepts a 64 KiB body nested tens of
 * thousands of levels deep and turns `1e400` into `Infinity`; the canonical serialiser recurses once per
 * level and refuses non-finite numbers, so such a value must be refused by name before it gets there.
 */

/** Deepest nesting of arrays and objects a hashed value may have; real payloads and bodies use under ten. */
export const MAX_JSON_DEPTH = 64;

/**
 * Describes the first way `value` breaks the bounds (nested too deep, or a non-finite number), or `undefined`
 * when it is within them. Walks iteratively, so hostile depth cannot overflow the stack here. The description
 * names the rule, never the offending content.
 *
 * @example
 * findJsonBoundsViolation(JSON.parse('{"x":1e400}')); // "holds a number outside the finite range"
 */
export function findJsonBoundsViolation(value: unknown): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const current = next.value;
    if (typeof current === "number") {
      if (!Number.isFinite(current)) return "holds a number outside the finite range";
      continue;
    }
    // Leaves of other kinds are the serialiser's to accept (`undefined` members are dropped) or refuse.
    if (typeof current !== "object" || current === null) continue;
    if (next.depth >= MAX_JSON_DEPTH) return `nests deeper than ${MAX_JSON_DEPTH} levels`;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) pending.push({ value: child, depth: next.depth + 1 });
  }
  return undefined;
}
