/** A measured number with as many decimals as its size deserves ("n/a" for NaN or infinity): 1234, 56.7, 8.90. */
export function formatFigure(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (Number.isInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
