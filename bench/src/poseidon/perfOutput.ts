/**
 * Reads the text `perf report --stdio` and `perf annotate --stdio` print: the share of samples per shared
 * object and symbol, and, inside one symbol, per class of instruction. Plain functions over text, so the
 * parsing is tested without perf.
 */

/** One symbol's share of all samples. */
export type PerfSymbol = { object: string; symbol: string; share: number };

/** `perf report --stdio --no-children --sort dso,sym` lines such as `  80.22%  poseidon.node  [.] search_4`. */
export function parsePerfReport(text: string): PerfSymbol[] {
  const symbols: PerfSymbol[] = [];
  for (const line of text.split("\n")) {
    const match = /^\s*([\d.]+)%\s+(\S+)\s+\[.\]\s+(.+?)\s*$/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined || match[3] === undefined) continue;
    symbols.push({ object: match[2], symbol: match[3], share: Number(match[1]) / 100 });
  }
  return symbols.sort((a, b) => b.share - a.share);
}

/** The instruction classes the search's profile is told in. */
export const INSTRUCTION_CLASSES = [
  "IFMA multiply (vpmadd52luq/huq)",
  "vector add, shift, logic",
  "vector loads, stores, moves, broadcasts",
  "compares and masks",
  "scalar and other",
] as const;

/** One of {@link INSTRUCTION_CLASSES}. */
export type InstructionClass = (typeof INSTRUCTION_CLASSES)[number];

/** Which class a mnemonic belongs to. */
export function instructionClass(mnemonic: string): InstructionClass {
  if (mnemonic.startsWith("vpmadd52")) return "IFMA multiply (vpmadd52luq/huq)";
  if (/^vp(add|sub|sll|srl|sra|and|or|xor|ternlog|mulu)/.test(mnemonic)) return "vector add, shift, logic";
  if (/^(vmov|vpbroadcast|vbroadcast|vinsert|vextract|vperm|vpunpck|vshuf|valign|vpshuf|vpblend|vpgather|vpscatter)/.test(mnemonic)) {
    return "vector loads, stores, moves, broadcasts";
  }
  if (/^(vpcmp|vptest|k)/.test(mnemonic)) return "compares and masks";
  return "scalar and other";
}

/** One instruction class's share of a symbol's samples. */
export type ClassShare = { name: InstructionClass; share: number };

/**
 * The share of one symbol's samples per instruction class, in {@link INSTRUCTION_CLASSES} order, from
 * `perf annotate --stdio -s <symbol>` lines such as `    1.52 :   274ec:  vpmadd52luq %zmm1,%zmm2,%zmm3`
 * (percent of the symbol's samples, address, mnemonic). Classes without samples are 0.
 */
export function parsePerfAnnotate(text: string): ClassShare[] {
  const percents = new Map<InstructionClass, number>();
  let total = 0;
  for (const line of text.split("\n")) {
    const match = /^\s*([\d.]+)\s*:\s+[0-9a-f]+:\s+([a-z][a-z0-9.]*)/.exec(line);
    if (match?.[1] === undefined || match[2] === undefined) continue;
    const percent = Number(match[1]);
    const name = instructionClass(match[2]);
    percents.set(name, (percents.get(name) ?? 0) + percent);
    total += percent;
  }
  return INSTRUCTION_CLASSES.map((name) => ({ name, share: total > 0 ? (percents.get(name) ?? 0) / total : 0 }));
}
