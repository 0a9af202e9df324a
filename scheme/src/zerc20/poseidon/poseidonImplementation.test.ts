import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { poseidon2 } from "poseidon-lite";
import { describe, expect, it } from "vitest";

import { InvalidPoseidonSelectionError, NativePoseidonUnavailableError } from "./errors.js";
import { BN254_FIELD_MODULUS as p } from "../bn254.js";
import { parsePoseidonSelection, selectPoseidon } from "./poseidonImplementation.js";
import { poseidonLiteImplementation } from "./poseidonLiteImplementation.js";

// The native addon must build wherever the tests run (every supported machine has a C toolchain), so a
// missing addon fails here rather than silently testing poseidon-lite against itself. Both multiplications
// are checked: the one the processor gets by default (mulx/adx where available) and the portable one.
const native = selectPoseidon("native").implementation;
const portable = selectPoseidon("native", { portableArithmetic: true }).implementation;
const natives = [native, portable];
const reference = poseidonLiteImplementation;

function cpuHasAdx(): boolean {
  if (process.arch !== "x64") return false;
  const flags = /^flags\s*:(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.split(" ") ?? [];
  return flags.includes("adx") && flags.includes("bmi2");
}

/** Deterministic pseudo-random 256-bit values, so a failure names a reproducible input. */
function word256(label: string, index: number): bigint {
  return BigInt(`0x${createHash("sha256").update(`${label}:${index}`).digest("hex")}`);
}

const boundaries = [
  0n,
  1n,
  2n,
  p - 2n,
  p - 1n,
  p,
  p + 1n,
  2n * p - 1n,
  (1n << 253n) - 1n,
  1n << 253n,
  (1n << 253n) + 1n,
  (1n << 254n) - 1n,
  1n << 255n,
  5n * p,
  (1n << 256n) - 1n,
];

describe("native Poseidon", () => {
  it("is the implementation `native` selects, with mulx/adx where the processor has it", () => {
    expect(native.name).toBe("native");
    expect(native.arithmetic).toBe(process.platform === "linux" && cpuHasAdx() ? "mulx-adx" : "portable");
    expect(portable.arithmetic).toBe("portable");
  });

  it("matches the published burn-address vector", () => {
    for (const implementation of natives) {
      expect(implementation.searchBurnNonce(123456789n, 1000n, 12)).toBe(4346n);
      const h = implementation.poseidon2(123456789n, 5346n);
      expect(h).toBe(poseidon2([123456789n, 5346n]));
      expect(`0x${(h & ((1n << 160n) - 1n)).toString(16).padStart(40, "0")}`).toBe("0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8");
    }
  });

  it("equals poseidon-lite on every pair of field-boundary values, inputs at or above p included", () => {
    for (const a of boundaries) {
      for (const b of boundaries) {
        const expected = poseidon2([a, b]);
        for (const implementation of natives) expect(implementation.poseidon2(a, b), `poseidon2(${a}, ${b}), ${implementation.arithmetic}`).toBe(expected);
      }
    }
  });

  it("equals poseidon-lite on 10,000 pseudo-random inputs of every size", () => {
    let compared = 0;
    for (let i = 0; i < 10_000; i++) {
      // Full 256-bit words (a fifth of them at or above p), values below p, and short values.
      const shift = BigInt([0, 0, 3, 64, 200][i % 5]!);
      const a = word256("a", i) >> shift;
      const b = i % 7 === 0 ? word256("b", i) % p : word256("b", i) >> BigInt(i % 256);
      const expected = poseidon2([a, b]);
      for (const implementation of natives) {
        if (implementation.poseidon2(a, b) !== expected) expect.unreachable(`poseidon2(${a}, ${b}) differs (${implementation.arithmetic})`);
      }
      compared++;
    }
    expect(compared).toBe(10_000);
  });

  it("gives inputs outside [0, 2^256) to poseidon-lite, so results still agree", () => {
    for (const [a, b] of [
      [-1n, 5n],
      [5n, -(p + 3n)],
      [1n << 256n, 7n],
      [(1n << 300n) + 12345n, p - 1n],
    ] as const) {
      for (const implementation of natives) expect(implementation.poseidon2(a, b)).toBe(poseidon2([a, b]));
    }
  });

  it("finds the same proof-of-work nonce as the JavaScript search for many seeds", () => {
    for (let i = 0; i < 100; i++) {
      const powBits = 1 + (i % 8);
      const recipientFr = word256("recipient", i) >> 8n;
      // Bases just below p make the search wrap around the field; bases above p are reduced first.
      const secretBase = i % 10 === 0 ? p - 1n - BigInt(i % 3) : i % 10 === 1 ? p + BigInt(i) : word256("base", i) % p;
      const expected = reference.searchBurnNonce(recipientFr, secretBase, powBits);
      for (const implementation of natives) {
        expect(implementation.searchBurnNonce(recipientFr, secretBase, powBits), `seed ${i}, ${implementation.arithmetic}`).toBe(expected);
      }
    }
  });

  it("finds the same 12-bit nonce as the JavaScript search for a random seed", () => {
    const recipientFr = word256("recipient-12", 0) >> 8n;
    const secretBase = word256("base-12", 0) % p;
    const expected = reference.searchBurnNonce(recipientFr, secretBase, 12);
    for (const implementation of natives) expect(implementation.searchBurnNonce(recipientFr, secretBase, 12)).toBe(expected);
  });
});

describe("selection", () => {
  const missingAddon = join(fileURLToPath(new URL(".", import.meta.url)), "no-such-addon.node");

  it("falls back to poseidon-lite when the addon cannot be loaded, and still derives the published vector", () => {
    const choice = selectPoseidon("auto", { addonPath: missingAddon });
    expect(choice.implementation.name).toBe("poseidon-lite");
    expect(choice.fallback).toBeInstanceOf(NativePoseidonUnavailableError);
    expect(choice.implementation.searchBurnNonce(123456789n, 1000n, 12)).toBe(4346n);
  });

  it("refuses to run without the addon when `native` is required", () => {
    expect(() => selectPoseidon("native", { addonPath: missingAddon })).toThrow(NativePoseidonUnavailableError);
  });

  it("picks the addon under auto where it was built", () => {
    const choice = selectPoseidon("auto");
    expect(choice.implementation.name).toBe("native");
    expect(choice.fallback).toBeUndefined();
  });

  it("reads SVC_POSEIDON, and refuses other values without quoting them", () => {
    expect(parsePoseidonSelection({})).toBe("auto");
    expect(parsePoseidonSelection({ SVC_POSEIDON: "" })).toBe("auto");
    expect(parsePoseidonSelection({ SVC_POSEIDON: "js" })).toBe("js");
    expect(parsePoseidonSelection({ SVC_POSEIDON: "native" })).toBe("native");
    for (const value of ["JS", "wasm", "native ", "secret-looking-value"]) {
      const error = (() => {
        try {
          parsePoseidonSelection({ SVC_POSEIDON: value });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(InvalidPoseidonSelectionError);
      expect((error as Error).message).toContain("SVC_POSEIDON");
      expect((error as Error).message).not.toContain(value);
    }
  });

  it("derives with poseidon-lite in a process started with SVC_POSEIDON=js", async () => {
    // The compiled package, as another workspace loads it; the process-wide choice is made from its env.
    const entry = fileURLToPath(new URL("../../../dist/index.js", import.meta.url));
    const script = `const s = await import(${JSON.stringify(entry)});
const d = s.deriveBurnAddress(123456789n, 1000n);
console.log(JSON.stringify({ name: s.poseidonChoice().implementation.name, nonce: String(d.nonce), address: d.burnAddress.toLowerCase() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, SVC_POSEIDON: "js" },
    });
    expect(JSON.parse(stdout)).toEqual({
      name: "poseidon-lite",
      nonce: "4346",
      address: "0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8",
    });
  });
});
