/**
 * The `poseidon` probe: which Poseidon implementation, and which search path of the native addon, `start` will
 * derive burn addresses with, from `SVC_POSEIDON`, `SVC_POSEIDON_PATH` and what the scheme's addon loads. The
 * JavaScript fallback works but costs about a second of CPU per v1 burn address (far more per v2 address), so
 * it is a warning; an invalid value, a required addon that is missing or a forced path this processor lacks
 * would stop `start`, so those are problems, printed with `start`'s own message.
 */
import { BaseError, POSEIDON_PATH_VARIABLE, POSEIDON_SELECTION_VARIABLE, type selectPoseidon } from "@svc/scheme";

import { type ChosenPoseidon, choosePoseidon } from "../../challenges/choosePoseidon.js";
import type { Environment } from "../../config/index.js";
import { FindingList, type CheckFinding } from "./checkFinding.js";

/**
 * Reports the Poseidon implementation and path `start` would run, as `start` would choose them from `env`;
 * `select` stands in for the scheme's selector in tests of a processor that lacks a path.
 */
export function probePoseidon(env: Environment, select?: typeof selectPoseidon): CheckFinding[] {
  const list = new FindingList("poseidon");
  let choice: ChosenPoseidon;
  try {
    choice = choosePoseidon(env, select);
  } catch (error) {
    // Every error of the choice is written to name the variable, never its value.
    list.fail(error instanceof BaseError ? error.shortMessage : "the Poseidon implementation cannot be chosen");
    return list.findings;
  }
  const { implementation, fallback, selection, requestedPath } = choice;
  const variables = `${POSEIDON_SELECTION_VARIABLE}=${selection}, ${POSEIDON_PATH_VARIABLE}=${requestedPath}`;
  if (fallback !== undefined) {
    list.warn(
      `burn addresses derive with poseidon-lite (JavaScript, about a second of CPU each), so no search path applies: the native addon is unavailable; rebuild it with \`npm run install -w scheme\` (${POSEIDON_SELECTION_VARIABLE}=js silences this)`,
    );
  } else if (implementation.path === undefined) {
    list.ok(`burn addresses derive with ${implementation.name}; the search path applies only to the native addon (${variables})`);
  } else {
    list.ok(`burn addresses derive with ${implementation.name}, path ${implementation.path} (${variables})`);
  }
  return list.findings;
}
