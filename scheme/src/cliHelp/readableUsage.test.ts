import { describe, expect, it } from "vitest";

import { readableUsage } from "./readableUsage.js";

const definitions = [
  {
    path: "cli proof",
    usage: "cli proof <paymentId>",
    options: [
      { definition: "--out #0", required: true },
      { definition: "--trust-anchor #0", required: true },
      { definition: "--json", required: false },
    ],
  },
  { path: "cli ledger", usage: "cli ledger", options: [{ definition: "--json", required: false }] },
];
const valueNames = { "--out": "dir", "--trust-anchor": "file" };

describe("readableUsage", () => {
  it("names option values, puts required options on the usage line and re-aligns the options table", () => {
    const help = [
      "Usage",
      "",
      "$ cli proof <paymentId>",
      "",
      "Options",
      "",
      "  --out #0             where to save",
      "  --trust-anchor #0    the anchor",
      "  --json               one JSON object",
      "",
    ].join("\n");
    expect(readableUsage(help, { definitions, valueNames })).toBe(
      [
        "Usage",
        "",
        "$ cli proof --out <dir> --trust-anchor <file> <paymentId>",
        "",
        "Options",
        "",
        "  --out <dir>              where to save",
        "  --trust-anchor <file>    the anchor",
        "  --json                   one JSON object",
        "",
      ].join("\n"),
    );
  });

  it("writes a required option without nested brackets, an unnamed value as <value>, and leaves other lines alone", () => {
    expect(readableUsage("cli proof <--out #0> [--at #0]\n$ cli ledger\n", { definitions, valueNames })).toBe(
      "cli proof --out <dir> [--at <value>]\n$ cli ledger\n",
    );
  });
});
