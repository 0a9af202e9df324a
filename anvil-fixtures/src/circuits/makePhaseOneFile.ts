/**
 * Makes the phase-1 file (powers of tau over BN254 for circuits of up to 2^14 constraints) the local circuits
 * are set up from. Deterministic: one accumulator, one public beacon (a fixed hash, 2^10 iterations), then
 * phase-2 preparation; running it again reproduces `circuits/pot14.ptau` byte for byte (about 8 minutes on
 * two cores), so the committed file can be checked by anyone. Not a secure ceremony: nothing here is secret.
 */
import { rm } from "node:fs/promises";
import * as snarkjs from "snarkjs";

/** 2^14 constraints: the v2 circuit has about 11,200 at circom2 `--O2`. */
export const PHASE_ONE_POWER = 14;
/** The beacon: a fixed, published value, so the randomness is nobody's and anybody's. */
export const PHASE_ONE_BEACON_HASH = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
export const PHASE_ONE_BEACON_ITERATIONS_EXP = 10;
export const PHASE_ONE_BEACON_NAME = "svc local world";

/** Writes the phase-1 file to `path` (intermediate files beside it are removed). */
export async function makePhaseOneFile(path: string): Promise<void> {
  const fresh = `${path}.0000`;
  const beacon = `${path}.beacon`;
  const curve = await snarkjs.curves.getCurveFromName("bn128");
  try {
    await snarkjs.powersOfTau.newAccumulator(curve, PHASE_ONE_POWER, fresh);
    await snarkjs.powersOfTau.beacon(fresh, beacon, PHASE_ONE_BEACON_NAME, PHASE_ONE_BEACON_HASH, PHASE_ONE_BEACON_ITERATIONS_EXP);
    await snarkjs.powersOfTau.preparePhase2(beacon, path);
  } finally {
    await curve.terminate();
    await rm(fresh, { force: true });
    await rm(beacon, { force: true });
  }
}
