import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { poseidon2, poseidon3 } from "poseidon-lite";
import { describe, expect, it } from "vitest";

import { InvalidPoseidonSelectionError, NativePoseidonUnavailableError, PoseidonInputError } from "./errors.js";
import { BN254_FIELD_MODULUS as p } from "../bn254.js";
import { loadNativePoseidon } from "./nativePoseidon.js";
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

/** The v2 burn-address domain tag (ASCII "burn", little-endian): `h = Poseidon3(D, R, s)`. */
const V2_DOMAIN = 0x6e727562n;

const ADDRESS_MASK = (1n << 160n) - 1n;

const addressOf = (h: bigint) => `0x${(h & ADDRESS_MASK).toString(16).padStart(40, "0")}`;

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

  it("keeps each loaded arithmetic after another is loaded in the same thread", () => {
    const first = loadNativePoseidon(p);
    const expected = first.arithmetic();
    const second = loadNativePoseidon(p, { portableArithmetic: true });
    expect(second.arithmetic()).toBe("portable");
    expect(first.arithmetic()).toBe(expected);
    expect(first.poseidon3(1n, 2n, 3n)).toBe(second.poseidon3(1n, 2n, 3n));
  });

  it("matches the published burn-address vector", () => {
    for (const implementation of natives) {
      expect(implementation.searchBurnNonce([123456789n], 1000n, 12)).toBe(4346n);
      const h = implementation.poseidon2(123456789n, 5346n);
      expect(h).toBe(poseidon2([123456789n, 5346n]));
      expect(addressOf(h)).toBe("0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8");
    }
  });

  it("matches the published v2 burn-address vector (three inputs, 16 bits)", () => {
    const secret = 1000n + 138276n;
    const h = poseidon3([V2_DOMAIN, 123456789n, secret]);
    expect(addressOf(h)).toBe("0x3034a16d0e8b774fc609a8adcbe89ed3c5bad8c3");
    expect((h >> 160n) & 0xffffn).toBe(0n);
    for (const implementation of natives) {
      expect(implementation.searchBurnNonce([V2_DOMAIN, 123456789n], 1000n, 16), implementation.arithmetic).toBe(138276n);
      expect(implementation.poseidon3(V2_DOMAIN, 123456789n, secret)).toBe(h);
    }
  });

  it("matches the published poseidon3([1, 2, 3])", () => {
    const expected = 0x0e7732d89e6939c0ff03d5e58dab6302f3230e269dc5b968f725df34ab36d732n;
    expect(poseidon3([1n, 2n, 3n])).toBe(expected);
    for (const implementation of [...natives, reference]) expect(implementation.poseidon3(1n, 2n, 3n)).toBe(expected);
  });

  it("equals poseidon-lite on every pair of field-boundary values, inputs at or above p included", () => {
    for (const a of boundaries) {
      for (const b of boundaries) {
        const expected = poseidon2([a, b]);
        for (const implementation of natives) expect(implementation.poseidon2(a, b), `poseidon2(${a}, ${b}), ${implementation.arithmetic}`).toBe(expected);
      }
    }
  });

  it("equals poseidon-lite on every triple of field-boundary values, inputs at or above p included", () => {
    for (const a of boundaries) {
      for (const b of boundaries) {
        for (const c of boundaries) {
          const expected = poseidon3([a, b, c]);
          for (const implementation of natives) {
            if (implementation.poseidon3(a, b, c) !== expected) expect.unreachable(`poseidon3(${a}, ${b}, ${c}) differs (${implementation.arithmetic})`);
          }
        }
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

  it("equals poseidon-lite on 10,000 pseudo-random triples of every size", () => {
    let compared = 0;
    for (let i = 0; i < 10_000; i++) {
      const shift = BigInt([0, 0, 3, 64, 200][i % 5]!);
      const a = word256("t-a", i) >> shift;
      const b = i % 7 === 0 ? word256("t-b", i) % p : word256("t-b", i) >> BigInt(i % 256);
      const c = i % 3 === 0 ? word256("t-c", i) : word256("t-c", i) >> BigInt((i * 37) % 256);
      const expected = poseidon3([a, b, c]);
      for (const implementation of natives) {
        if (implementation.poseidon3(a, b, c) !== expected) expect.unreachable(`poseidon3(${a}, ${b}, ${c}) differs (${implementation.arithmetic})`);
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
    for (const [a, b, c] of [
      [-1n, 5n, 6n],
      [5n, 6n, -(p + 3n)],
      [7n, 1n << 256n, 8n],
      [(1n << 300n) + 12345n, p - 1n, 0n],
    ] as const) {
      for (const implementation of natives) expect(implementation.poseidon3(a, b, c)).toBe(poseidon3([a, b, c]));
    }
  });

  it("refuses a nonce-search prefix of other than one or two elements", () => {
    for (const implementation of [...natives, reference]) {
      expect(() => implementation.searchBurnNonce([], 1n, 1)).toThrow(PoseidonInputError);
      expect(() => implementation.searchBurnNonce([1n, 2n, 3n], 1n, 1)).toThrow(PoseidonInputError);
    }
  });

  it("finds the same proof-of-work nonce as the JavaScript search for many seeds", () => {
    for (let i = 0; i < 100; i++) {
      const powBits = 1 + (i % 8);
      const recipientFr = word256("recipient", i) >> 8n;
      // Bases just below p make the search wrap around the field; bases above p are reduced first.
      const secretBase = i % 10 === 0 ? p - 1n - BigInt(i % 3) : i % 10 === 1 ? p + BigInt(i) : word256("base", i) % p;
      const expected = reference.searchBurnNonce([recipientFr], secretBase, powBits);
      for (const implementation of natives) {
        expect(implementation.searchBurnNonce([recipientFr], secretBase, powBits), `seed ${i}, ${implementation.arithmetic}`).toBe(expected);
      }
    }
  });

  it("finds the same width-4 proof-of-work nonce as the JavaScript search for many seeds", () => {
    for (let i = 0; i < 100; i++) {
      const powBits = 1 + (i % 8);
      // The v2 domain tag most of the time, arbitrary and out-of-field first elements otherwise.
      const domain = i % 4 === 0 ? word256("domain", i) : i % 4 === 1 ? p + BigInt(i) : V2_DOMAIN;
      const recipientFr = word256("recipient-v2", i) >> 8n;
      const secretBase = i % 10 === 0 ? p - 1n - BigInt(i % 3) : i % 10 === 1 ? p + BigInt(i) : word256("base-v2", i) % p;
      const expected = reference.searchBurnNonce([domain, recipientFr], secretBase, powBits);
      for (const implementation of natives) {
        expect(implementation.searchBurnNonce([domain, recipientFr], secretBase, powBits), `seed ${i}, ${implementation.arithmetic}`).toBe(expected);
      }
    }
  });

  it("finds the same 12-bit nonce as the JavaScript search for a random seed", () => {
    const recipientFr = word256("recipient-12", 0) >> 8n;
    const secretBase = word256("base-12", 0) % p;
    const expected = reference.searchBurnNonce([recipientFr], secretBase, 12);
    for (const implementation of natives) expect(implementation.searchBurnNonce([recipientFr], secretBase, 12)).toBe(expected);
  });
});

describe("selection", () => {
  const missingAddon = join(fileURLToPath(new URL(".", import.meta.url)), "no-such-addon.node");

  it("falls back to poseidon-lite when the addon cannot be loaded, and still derives the published vector", () => {
    const choice = selectPoseidon("auto", { addonPath: missingAddon });
    expect(choice.implementation.name).toBe("poseidon-lite");
    expect(choice.fallback).toBeInstanceOf(NativePoseidonUnavailableError);
    expect(choice.implementation.searchBurnNonce([123456789n], 1000n, 12)).toBe(4346n);
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
const d = s.deriveBurnAddress(s.zerc20Protocol("zerc20-v1"), 123456789n, 1000n);
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
