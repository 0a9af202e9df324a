/**
 * The `poseidon` probe: which Poseidon implementation `start` will derive burn addresses with, from
 * `SVC_POSEIDON` and whether the scheme's native addon loads. The JavaScript fallback works but costs about
 * a second of CPU per burn address, so it is a warning; an invalid value or a required addon that is missing
 * would stop `start`, so those are problems.
 */
import { BaseError, parsePoseidonSelection, POSEIDON_SELECTION_VARIABLE, selectPoseidon } from "@svc/scheme";

import type { Environment } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/** Reports the Poseidon implementation `start` would run, as `start` would choose it from `env`. */
export function probePoseidon(env: Environment): CheckFinding[] {
  const list = new FindingList("poseidon");
  let choice: ReturnType<typeof selectPoseidon>;
  try {
    choice = selectPoseidon(parsePoseidonSelection(env));
  } catch (error) {
    // Both scheme errors are written to name the variable, never its value.
    list.fail(error instanceof BaseError ? error.shortMessage : "the Poseidon implementation cannot be chosen");
    return list.findings;
  }
  const { implementation, fallback, selection } = choice;
  if (fallback !== undefined) {
    list.warn(
      `burn addresses derive with poseidon-lite (JavaScript, about a second of CPU each): the native addon is unavailable; rebuild it with \`npm run install -w scheme\` (${POSEIDON_SELECTION_VARIABLE}=js silences this)`,
    );
  } else {
    list.ok(`burn addresses derive with ${implementation.name} (${POSEIDON_SELECTION_VARIABLE}=${selection})`);
  }
  return list.findings;
}
