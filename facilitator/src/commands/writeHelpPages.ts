/**
 * Build step (`make build`, after `tsc -b`): renders every help page of this CLI once into
 * `dist/helpPages.json`, so `--help` answers without loading clipanion and the command definitions.
 */
import { fileURLToPath } from "node:url";

import { writeHelpPages } from "@svc/scheme/cli-help";

import { createCli, runCli } from "./runCli.js";

const written = await writeHelpPages({ distDir: fileURLToPath(new URL("../", import.meta.url)), definitions: () => createCli().definitions(), runCli });
process.stdout.write(`help pages: ${written}\n`);
