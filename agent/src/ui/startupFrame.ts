/**
 * The TUI's first frame, drawn straight to the terminal before Ink, React and the payer's chain clients load:
 * on a small machine those take most of a second, and a blank terminal for that long reads as a hang. Ink
 * draws the full screen in its place. This module loads nothing but Node's stream types, so drawing it costs
 * no more than the CLI's own start.
 */
import type { Readable, Writable } from "node:stream";

/** The frame's lines; the first matches the full screen's title line, so the screen settles rather than jumps. */
const LINES = ["svc-zerc20 payer", "starting: loading the payer, its policy and the chain clients…"] as const;

/** Bold on and off (SGR 1 / 22). */
const BOLD = "\u001b[1m";
const NORMAL = "\u001b[22m";

/** Moves the cursor up `lines` lines to column 1 and clears from there to the end of the screen. */
function eraseLines(lines: number): string {
  return `\r\u001b[${lines}A\u001b[0J`;
}

/**
 * Draws the startup frame when both streams are terminals (otherwise the command refuses to start and says
 * why, with nothing to erase) and returns the function that erases it; erasing twice is a no-op.
 *
 * @example
 * const erase = drawStartupFrame({ stdin, stdout, colors: true });
 * await loadEverything();
 * erase();
 * render(<App />);
 */
export function drawStartupFrame(parameters: { stdin: Readable; stdout: Writable; colors: boolean }): () => void {
  const { stdin, stdout, colors } = parameters;
  if (Reflect.get(stdin, "isTTY") !== true || Reflect.get(stdout, "isTTY") !== true) return () => undefined;
  const [title, status] = LINES;
  stdout.write(`${colors ? `${BOLD}${title}${NORMAL}` : title}\n${status}\n`);
  let drawn = true;
  return () => {
    if (!drawn) return;
    drawn = false;
    stdout.write(eraseLines(LINES.length));
  };
}
