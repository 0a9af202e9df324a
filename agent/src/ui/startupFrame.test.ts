import { PassThrough } from "node:stream";

import { describe, expect, it } from "vitest";

import { drawStartupFrame } from "./startupFrame.js";

/** A stream that says it is (or is not) a terminal, and what was written to it. */
function terminal(isTTY: boolean): { stream: PassThrough; written: () => string } {
  const stream = new PassThrough();
  Object.assign(stream, { isTTY });
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  return { stream, written: () => Buffer.concat(chunks).toString("utf8") };
}

describe("drawStartupFrame", () => {
  it("draws two lines on a terminal and erases exactly those two lines, once", () => {
    const stdin = terminal(true);
    const stdout = terminal(true);
    const erase = drawStartupFrame({ stdin: stdin.stream, stdout: stdout.stream, colors: false });
    expect(stdout.written()).toBe("svc-zerc20 payer\nstarting: loading the payer, its policy and the chain clients…\n");
    erase();
    erase();
    expect(stdout.written().slice(-"\r\u001b[2A\u001b[0J".length)).toBe("\r\u001b[2A\u001b[0J");
    expect(stdout.written().split("\u001b[2A")).toHaveLength(2);
  });

  it("writes the title in bold only with colours on", () => {
    const stdout = terminal(true);
    drawStartupFrame({ stdin: terminal(true).stream, stdout: stdout.stream, colors: true });
    expect(stdout.written().startsWith("\u001b[1msvc-zerc20 payer\u001b[22m\n")).toBe(true);
  });

  it("draws nothing when either stream is not a terminal (the command then refuses and says why)", () => {
    for (const [inTTY, outTTY] of [
      [false, true],
      [true, false],
    ] as const) {
      const stdout = terminal(outTTY);
      const erase = drawStartupFrame({ stdin: terminal(inTTY).stream, stdout: stdout.stream, colors: true });
      erase();
      expect(stdout.written()).toBe("");
    }
  });
});
