/**
 * How many IFMA multiply instructions (`vpmadd52luq` + `vpmadd52huq`, eight lanes each) one step of the
 * `avx512-ifma` search issues, counted from the structure of `scheme/native/lanes_rounds.h` and
 * `lanes_ifma.c` rather than sampled: the processors this runs on expose no instruction counters to a
 * virtual machine. Divided by the measured time per step it gives the multiplier's use, which is what
 * "near the machine's limit" is about. When the native rounds change shape, this count must follow.
 */

/** Limbs of 52 bits per field element on the IFMA path. */
const LIMBS = 5;

/** circomlib's round counts of the two widths a burn address uses (8 full rounds each). */
export const POSEIDON_ROUNDS: Record<3 | 4, { full: number; partial: number }> = { 3: { full: 8, partial: 57 }, 4: { full: 8, partial: 56 } };

/** One product accumulated into the 2 × 5 columns: 25 limb products, low and high halves. */
const MUL = 2 * LIMBS * LIMBS;
/** A square: each cross product once (then doubled by a shift), plus the diagonal. */
const SQUARE = LIMBS * (LIMBS - 1) + 2 * LIMBS;
/** Montgomery reduction: per limb, one product for the quotient digit and one limb-by-p product. */
const REDUCE = LIMBS * (1 + 2 * LIMBS);
/** x^5 as x², x⁴, x⁴·x, each reduced. */
const POW5 = 2 * (SQUARE + REDUCE) + MUL + REDUCE;
/** A matrix row against the state, accumulated unreduced and reduced once. */
const dot = (width: number) => width * MUL + REDUCE;
/** The sparse partial-round matrix: row 0 as a dot, each other element reduced on its own (plus a product by one on a tightening round). */
const mixSparse = (width: number, tighten: boolean) => dot(width) + (width - 1) * ((tighten ? MUL : 0) + MUL + REDUCE);

/** The instruction counts of one eight-lane group's step (a step runs two such groups), split by part of the permutation. */
export type IfmaStepInstructions = {
  /** The secret's column of the first round (the prefix's part is computed once per search). */
  firstRound: number;
  /** The other full rounds before the partial ones. */
  openingRounds: number;
  partialRounds: number;
  closingRounds: number;
  /** Leaving Montgomery form. */
  leave: number;
  total: number;
};

/**
 * The IFMA instructions of one eight-lane search step at `width` (3 for v1, 4 for v2).
 *
 * @example
 * ifmaInstructionsPerStep(4).total; // 63150: about 7,900 per permutation
 */
export function ifmaInstructionsPerStep(width: 3 | 4): IfmaStepInstructions {
  const { full, partial } = POSEIDON_ROUNDS[width];
  const half = full / 2;
  const firstRound = MUL + REDUCE + POW5 + width * (MUL + REDUCE);
  const openingRounds = (half - 1) * (width * POW5 + width * dot(width));
  let partialRounds = 0;
  for (let round = 0; round < partial; round++) {
    partialRounds += POW5 + (round + 1 < partial ? mixSparse(width, round % 16 === 15) : width * dot(width));
  }
  let closingRounds = 0;
  for (let round = half; round < full; round++) closingRounds += width * POW5 + (round + 1 < full ? width : 1) * dot(width);
  const leave = REDUCE;
  return { firstRound, openingRounds, partialRounds, closingRounds, leave, total: firstRound + openingRounds + partialRounds + closingRounds + leave };
}

/** One ordinary partial round (not the last, not a tightening one): its instructions, and those of its reductions. */
export type IfmaPartialRound = { total: number; reductions: number };

/**
 * An ordinary partial round of the eight-lane step at `width`: the S-box on element 0 and the sparse matrix,
 * and how many of its instructions are Montgomery reductions (three in the S-box, one for row 0, one per
 * other element).
 *
 * @example
 * ifmaPartialRound(4); // { total: 845, reductions: 385 }
 */
export function ifmaPartialRound(width: 3 | 4): IfmaPartialRound {
  return { total: POW5 + mixSparse(width, false), reductions: (3 + 1 + (width - 1)) * REDUCE };
}
