/** Environment parsing shared by the bench's child programs: they fail fast, naming the variable. */

/** Reads a required variable or exits the program with a one-line error. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") {
    process.stderr.write(`${name} is required\n`);
    process.exit(2);
  }
  return value;
}

/** Reads an optional integer variable (default `fallback`) or exits with a one-line error. */
export function integerEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`${name} must be a non-negative integer\n`);
    process.exit(2);
  }
  return value;
}

/** Prints the readiness line every bench child prints once it listens: `{"event":"listening","url":...}`. */
export function announceListening(url: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ event: "listening", url, ...fields })}\n`);
}
