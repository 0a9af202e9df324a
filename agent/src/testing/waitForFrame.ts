import { setTimeout as delay } from "node:timers/promises";

/**
 * Waits until the rendered frame satisfies `predicate` (an output marker), polling the frame rather than
 * sleeping a fixed time; fails with the last frame after `timeoutMs`.
 */
export async function waitForFrame(lastFrame: () => string | undefined, predicate: (frame: string) => boolean, timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = lastFrame() ?? "";
    if (predicate(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`timed out waiting for the TUI; last frame:\n${frame}`);
    await delay(10);
  }
}

/** Waits until the frame contains every one of `texts`. */
export function waitForText(lastFrame: () => string | undefined, ...texts: string[]): Promise<string> {
  return waitForFrame(lastFrame, (frame) => texts.every((text) => frame.includes(text)));
}
