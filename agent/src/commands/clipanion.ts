/**
 * clipanion, imported through its CommonJS entry. Its package has no `exports` map and an extensionless
 * `main`, so Node loads `index.js` while Vite's resolver (the tests) prefers `index.mjs`, whose directory
 * import Node's ES loader refuses; naming the `.js` file gives both the same module. Every command imports
 * clipanion from here so the workaround lives in one place.
 */
export { Builtins, Cli, Command, Option, UsageError } from "clipanion/lib/advanced/index.js";
export type { BaseContext } from "clipanion/lib/advanced/index.js";
