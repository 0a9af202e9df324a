/**
 * clipanion's usage and help text made readable, for both CLIs: an option's value is named (`--config <path>`,
 * not clipanion's `--config #0`, nor `<--config #0>` for a required one), the `$ …` usage line of a command
 * lists its required options, and the Options table is re-aligned after the longer names. Light on purpose
 * (Node's `stream` only): help and usage run before any command loads.
 */
import { Writable } from "node:stream";

/** What a command line's usage text needs to know of it: clipanion's `cli.definitions()`, structurally. */
export type UsageDefinitions = readonly { path: string; usage: string; options: readonly { definition: string; required: boolean }[] }[];

/** Spaces clipanion leaves between the longest option and its description. */
const OPTION_GAP = 4;

/** `--out #0` → `--out <dir>`, with the CLI's name for that option's value (`value` when it has none). */
function nameValues(text: string, valueNames: Readonly<Record<string, string>>): string {
  const named = (option: string) => `${option} <${valueNames[option] ?? "value"}>`;
  return text
    .replace(/<(--[a-z][a-z-]*) #0>/g, (_match, option: string) => named(option))
    .replace(/(--[a-z][a-z-]*) #0/g, (_match, option: string) => named(option));
}

/** Re-pads each block of option rows (`  --x <v>    description`) so the descriptions line up again. */
function alignOptionRows(text: string): string {
  const lines = text.split("\n");
  const row = /^ {2}(-\S.*?) {2,}(\S.*)$/;
  for (let start = 0; start < lines.length; start++) {
    if (!row.test(lines[start] ?? "")) continue;
    let end = start;
    while (end < lines.length && row.test(lines[end] ?? "")) end++;
    const rows = lines.slice(start, end).map((line) => row.exec(line) as RegExpExecArray);
    const width = Math.max(...rows.map((match) => (match[1] ?? "").length)) + OPTION_GAP;
    rows.forEach((match, index) => {
      lines[start + index] = `  ${(match[1] ?? "").padEnd(width)}${match[2] ?? ""}`;
    });
    start = end;
  }
  return lines.join("\n");
}

/** `$ svc-agent proof <paymentId>` → `$ svc-agent proof --out #0 --trust-anchor #0 <paymentId>` (names come after). */
function withRequiredOptions(text: string, definitions: UsageDefinitions): string {
  return text.replace(/^\$ (.+)$/gm, (line, usage: string) => {
    const definition = definitions.find((candidate) => candidate.usage === usage);
    const required = definition?.options.filter((option) => option.required).map((option) => option.definition) ?? [];
    if (definition === undefined || required.length === 0) return line;
    return `$ ${definition.path} ${required.join(" ")}${usage.slice(definition.path.length)}`;
  });
}

/**
 * The readable form of `text` (usage, help or an error with its usage) for a command line with `definitions`
 * and `valueNames` (option → what its value is).
 *
 * @example
 * readableUsage(cli.usage(null), { definitions: cli.definitions(), valueNames: { "--config": "path" } });
 */
export function readableUsage(text: string, parameters: { definitions: UsageDefinitions; valueNames: Readonly<Record<string, string>> }): string {
  return alignOptionRows(nameValues(withRequiredOptions(text, parameters.definitions), parameters.valueNames));
}

/** A stream that writes through `target`, making clipanion's usage text readable on the way. */
export function readableUsageStream(target: Writable, parameters: { definitions: UsageDefinitions; valueNames: Readonly<Record<string, string>> }): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      // Passed on at once: the caller flushes `target` before exiting, and nothing may wait in here.
      target.write(readableUsage(chunk.toString(), parameters));
      callback();
    },
  });
}
