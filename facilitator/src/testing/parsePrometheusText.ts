/**
 * Test harness: parses the Prometheus text exposition format into samples, so tests assert on values rather
 * than grep the text. Handles what prom-client writes: `# HELP` / `# TYPE` lines, `name{label="value",...}
 * number` samples (`+Inf` and `-Inf` included), escaped label values. Test-only code.
 */

/** One sample line. */
export type PrometheusSample = { name: string; labels: Record<string, string>; value: number };

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of `text`; throws on a line that is neither a comment nor a sample. */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const match = SAMPLE.exec(line);
    if (match === null) throw new TypeError(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, raw] of (match[2] ?? "").matchAll(LABEL)) {
      labels[name!] = raw!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
    }
    samples.push({ name: match[1]!, labels, value: sampleNumber(match[3]!) });
  }
  return samples;
}

// The exposition format spells infinities `+Inf` and `-Inf`, which `Number` does not read.
function sampleNumber(text: string): number {
  if (text === "+Inf") return Number.POSITIVE_INFINITY;
  if (text === "-Inf") return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/** The value of the sample `name` whose labels include `labels`, or `undefined` when there is none. */
export function sampleValue(samples: readonly PrometheusSample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
}
