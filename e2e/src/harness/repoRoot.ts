/** The repository root, for locating the built programs. */
import { fileURLToPath } from "node:url";

/** Absolute path of the repository root (this file is `e2e/{src,dist}/harness/repoRoot.*`). */
export const REPO_ROOT: string = fileURLToPath(new URL("../../../", import.meta.url));
