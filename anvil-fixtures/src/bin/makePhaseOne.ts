#!/usr/bin/env node
/**
 * `npm run circuits:phase1 -w anvil-fixtures`: makes the phase-1 file again (about 8 minutes) and says whether
 * it is the committed one. Writes to `PHASE_ONE_OUT` (default: a file beside the committed one), never over it.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PHASE_ONE_PATH, PHASE_ONE_SHA256 } from "../circuits/buildSingleTeleportCircuit.js";
import { makePhaseOneFile } from "../circuits/makePhaseOneFile.js";

const out = process.env.PHASE_ONE_OUT ?? `${PHASE_ONE_PATH}.regenerated`;
await makePhaseOneFile(out);
const digest = createHash("sha256")
  .update(await readFile(out))
  .digest("hex");
process.stdout.write(
  `${out}\nsha256 ${digest}\n${digest === PHASE_ONE_SHA256 ? "identical to the committed file" : `DIFFERS from the committed file (${PHASE_ONE_SHA256})`}\n`,
);
process.exit(digest === PHASE_ONE_SHA256 ? 0 : 1);
