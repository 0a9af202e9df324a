/** What is left under a cap after `spent` (base units), never below zero. */
export function remainingUnder(cap: string | bigint, spent: string | bigint): bigint {
  const left = BigInt(cap) - BigInt(spent);
  return left < 0n ? 0n : left;
}
