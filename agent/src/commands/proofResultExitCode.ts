import type { ProofResult } from "@svc/scheme";

import { EXIT_FAILED, EXIT_OK } from "./exitCodes.js";

/** `proof` exit code: 0 for `VALID_NOW` and `VALID_AT_ISSUANCE`, 1 for every other result. */
export function proofResultExitCode(result: ProofResult): number {
  return result === "VALID_NOW" || result === "VALID_AT_ISSUANCE" ? EXIT_OK : EXIT_FAILED;
}
