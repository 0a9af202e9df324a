/**
 * Turns `poseidon-lite`'s constants into the parameter block the native addon (`native/poseidon.c`) loads,
 * with the two classic Poseidon speed-ups applied ahead of time:
 *
 * - partial-round constants: in a partial round only element 0 passes the S-box, so the constants of the
 *   other elements are carried through the MDS matrix into the next round; each partial round then adds a
 *   single constant, and what remains after the last one joins the first closing full round;
 * - sparse partial-round matrices: the MDS matrix `A` factors as `P · Q` with `P = diag(1, Â)` (`Â` the lower
 *   right `(t-1)x(t-1)` block) and `Q = [[a00, v], [Â⁻¹w, I]]`; `P` commutes with a partial round, so it is
 *   folded into the next round's matrix and each partial round multiplies by the sparse `Q` only (`2t - 1`
 *   products, not `t²`: 5 instead of 9 for t = 3, 7 instead of 16 for t = 4); the last partial round applies
 *   the accumulated dense matrix.
 *
 * Both rewrite the same permutation, so results stay those of `poseidon-lite`; the equality tests prove it.
 * Elements are stored in Montgomery form (`x · 2^256 mod p`) as four little-endian 64-bit limbs.
 */
import { PoseidonParametersError } from "./errors.js";
import type { PoseidonConstants } from "./poseidonLiteConstants.js";

const LIMB_BITS = 64n;
const LIMB_MASK = (1n << LIMB_BITS) - 1n;

type Matrix = bigint[][];

/** Field arithmetic over one prime, just enough to prepare parameters (not a hot path). */
function field(p: bigint) {
  const mod = (x: bigint) => ((x % p) + p) % p;
  const power = (base: bigint, exponent: bigint) => {
    let result = 1n;
    let b = mod(base);
    for (let e = exponent; e > 0n; e >>= 1n) {
      if (e & 1n) result = (result * b) % p;
      b = (b * b) % p;
    }
    return result;
  };
  const inverse = (x: bigint) => {
    if (mod(x) === 0n) throw new PoseidonParametersError("a matrix block is not invertible");
    return power(x, p - 2n);
  };
  const mulMatrix = (a: Matrix, b: Matrix): Matrix =>
    a.map((row) => b[0]!.map((_, column) => mod(row.reduce((sum, value, k) => sum + value * b[k]![column]!, 0n))));
  const mulVector = (a: Matrix, v: bigint[]): bigint[] => a.map((row) => mod(row.reduce((sum, value, k) => sum + value * v[k]!, 0n)));
  // Gauss-Jordan on [a | I]; the blocks are at most 3x3, so clarity beats speed.
  const invertMatrix = (a: Matrix): Matrix => {
    const n = a.length;
    const rows = a.map((row, i) => [...row.map(mod), ...Array.from({ length: n }, (_, j) => (i === j ? 1n : 0n))]);
    for (let column = 0; column < n; column++) {
      const pivotIndex = rows.findIndex((row, index) => index >= column && row[column] !== 0n);
      if (pivotIndex < 0) throw new PoseidonParametersError("a matrix block is not invertible");
      const pivot = rows[pivotIndex]!;
      rows[pivotIndex] = rows[column]!;
      const scale = inverse(pivot[column]!);
      const normalised = pivot.map((value) => mod(value * scale));
      rows[column] = normalised;
      for (const [index, row] of rows.entries()) {
        if (index === column) continue;
        const factor = row[column]!;
        rows[index] = row.map((value, k) => mod(value - factor * normalised[k]!));
      }
    }
    return rows.map((row) => row.slice(n));
  };
  return { mod, power, inverse, mulMatrix, mulVector, invertMatrix };
}

function at<T>(values: readonly T[], index: number): T {
  const value = values[index];
  if (value === undefined) throw new PoseidonParametersError("a constant is missing");
  return value;
}

/** The optimised, still plain (not Montgomery) parameters; exported for the equality tests' inspection. */
export type OptimisedPoseidonParameters = {
  /** Per full round, `width` constants; the first closing round includes the constants carried out of the partial rounds. */
  fullConstants: bigint[][];
  /** One constant per partial round, added to element 0. */
  partialConstants: bigint[];
  /** Per partial round except the last: `[a00, v1 .. v(t-1), ŵ1 .. ŵ(t-1)]` of the sparse matrix `Q`, `ŵ = Â⁻¹w`. */
  sparseMatrices: bigint[][];
  /** The dense matrix of the last partial round. */
  lastPartialMatrix: Matrix;
  mds: Matrix;
};

/** Applies the constant carry and the sparse factorisation to `constants` over the field of modulus `p`. */
export function optimisePoseidonParameters(constants: PoseidonConstants, p: bigint): OptimisedPoseidonParameters {
  const { width, fullRounds, partialRounds, mds } = constants;
  if (mds.length !== width || mds.some((row) => row.length !== width)) throw new PoseidonParametersError(`the MDS matrix is not ${width}x${width}`);
  const F = field(p);
  const half = fullRounds / 2;
  const roundVector = (round: number) => Array.from({ length: width }, (_, i) => F.mod(at(constants.roundConstants, round * width + i)));

  const fullConstants: bigint[][] = [];
  for (let round = 0; round < half; round++) fullConstants.push(roundVector(round));
  const partialConstants: bigint[] = [];
  let carry = new Array<bigint>(width).fill(0n);
  for (let round = half; round < half + partialRounds; round++) {
    const vector = roundVector(round).map((c, i) => F.mod(c + at(carry, i)));
    partialConstants.push(at(vector, 0));
    carry = F.mulVector(mds, [0n, ...vector.slice(1)]);
  }
  for (let round = half + partialRounds; round < fullRounds + partialRounds; round++) {
    const vector = roundVector(round);
    fullConstants.push(round === half + partialRounds ? vector.map((c, i) => F.mod(c + at(carry, i))) : vector);
  }

  const sparseMatrices: bigint[][] = [];
  let accumulated: Matrix = mds;
  for (let round = 0; round < partialRounds - 1; round++) {
    const head = at(accumulated, 0);
    const tail = accumulated.slice(1);
    const block = tail.map((row) => row.slice(1));
    const column = tail.map((row) => at(row, 0));
    sparseMatrices.push([at(head, 0), ...head.slice(1), ...F.mulVector(F.invertMatrix(block), column)]);
    const folded = accumulated.map((row, i) => row.map((value, j) => (i === 0 || j === 0 ? (i === j ? 1n : 0n) : value)));
    accumulated = F.mulMatrix(mds, folded);
  }
  return { fullConstants, partialConstants, sparseMatrices, lastPartialMatrix: accumulated, mds };
}

/**
 * Packs the parameter block of one width that `init()` of the native addon expects: header `[width,
 * fullRounds, partialRounds]`, then `p`, `-p⁻¹ mod 2^64`, `R² mod p`, `R mod p`, and the optimised constants
 * and matrices in Montgomery form.
 *
 * @example
 * const blocks = NATIVE_POSEIDON_WIDTHS.map((width) => nativePoseidonParameters(loadPoseidonLiteConstants(width), BN254_FIELD_MODULUS));
 * addon.init(blocks, false);
 */
export function nativePoseidonParameters(constants: PoseidonConstants, p: bigint): Uint8Array {
  if (p >= 1n << 255n || p % 2n === 0n) throw new PoseidonParametersError("the modulus is not an odd number below 2^255");
  const optimised = optimisePoseidonParameters(constants, p);
  const F = field(p);
  const r = (1n << 256n) % p;
  const montgomery = (x: bigint) => F.mod(x * r);
  // -p⁻¹ mod 2^64 by Newton iteration: each step doubles the number of correct low bits.
  const word = 1n << LIMB_BITS;
  let pInverse = 1n;
  for (let i = 0; i < 7; i++) pInverse = (pInverse * (2n - p * pInverse)) % word;
  const negInverse = (word - (((pInverse % word) + word) % word)) % word;

  const words: bigint[] = [BigInt(constants.width), BigInt(constants.fullRounds), BigInt(constants.partialRounds)];
  const element = (x: bigint) => {
    for (let limb = 0n; limb < 4n; limb++) words.push((x >> (limb * LIMB_BITS)) & LIMB_MASK);
  };
  element(p);
  words.push(negInverse);
  element((r * r) % p);
  element(r);
  for (const round of optimised.fullConstants) for (const c of round) element(montgomery(c));
  for (const row of optimised.mds) for (const c of row) element(montgomery(c));
  for (const c of optimised.partialConstants) element(montgomery(c));
  for (const sparse of optimised.sparseMatrices) for (const c of sparse) element(montgomery(c));
  for (const row of optimised.lastPartialMatrix) for (const c of row) element(montgomery(c));

  const block = new Uint8Array(words.length * 8);
  const view = new DataView(block.buffer);
  for (const [index, value] of words.entries()) view.setBigUint64(index * 8, value, true);
  return block;
}
