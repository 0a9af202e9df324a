/**
 * clipanion, imported through its CommonJS entry. Its package has no `exports` map and an extensionless
 * `main`, so Node loads `index.js` (CommonJS) while Vite's resolver, used by the tests, prefers `index.mjs`,
 * whose directory import (`../platform`) Node's ES module loader refuses. Naming the `.js` file gives both
 * the same, working module; every command imports clipanion from here so the workaround lives in one place.
 */
export { Builtins, Cli, Command, Option, UsageError } from "clipanion/lib/advanced/index.js";
export type { BaseContext } from "clipanion/lib/advanced/index.js";
