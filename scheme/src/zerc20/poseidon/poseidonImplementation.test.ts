import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { poseidon2, poseidon3 } from "poseidon-lite";
import { describe, expect, it } from "vitest";

import {
  InvalidPoseidonPathError,
  InvalidPoseidonSelectionError,
  NativePoseidonUnavailableError,
  PoseidonInputError,
  PoseidonPathUnavailableError,
} from "./errors.js";
import { BN254_FIELD_MODULUS as p } from "../bn254.js";
import { loadNativePoseidon, type NativePoseidonPath, NativePoseidonPathSchema } from "./nativePoseidon.js";
import { parsePoseidonPath, parsePoseidonSelection, type PoseidonImplementation, selectPoseidon } from "./poseidonImplementation.js";
import { poseidonLiteImplementation } from "./poseidonLiteImplementation.js";

/** What the processor reports (Linux), read independently of the addon's own cpuid checks. */
const cpuFlags =
  process.arch === "x64" && process.platform === "linux" ? (/^flags\s*:(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.split(" ") ?? []) : [];

/** Whether this machine should run each path (the vector paths need GCC's target pragmas, as on Linux). */
const supportedHere: Record<NativePoseidonPath, boolean> = {
  "avx512-ifma": ["avx512f", "avx512ifma", "avx512vl"].every((flag) => cpuFlags.includes(flag)),
  avx2: cpuFlags.includes("avx2"),
  "mulx-adx": cpuFlags.includes("adx") && cpuFlags.includes("bmi2"),
  portable: true,
};
const supportedPaths = NativePoseidonPathSchema.options.filter((path) => supportedHere[path]);

// The native addon must build wherever the tests run (every supported machine has a C toolchain), so a
// missing addon fails here rather than silently testing poseidon-lite against itself. Every path this
// processor supports is checked, the default one first.
const native = selectPoseidon("native").implementation;
const natives: PoseidonImplementation[] = supportedPaths.map((path) => selectPoseidon("native", { path }).implementation);
const scalar = natives.find((implementation) => implementation.path === "mulx-adx" || implementation.path === "portable")!;
const reference = poseidonLiteImplementation;

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
  it("is the implementation `native` selects, on the fastest path the processor supports", () => {
    expect(native.name).toBe("native");
    expect(native.path).toBe(supportedPaths[0]);
    expect(natives.map((implementation) => implementation.path)).toEqual(supportedPaths);
  });

  it("loads exactly the paths the processor reports, and refuses the others by name", () => {
    for (const path of NativePoseidonPathSchema.options) {
      const loaded = (() => {
        try {
          return selectPoseidon("native", { path }).implementation.path === path;
        } catch (error) {
          expect(error).toBeInstanceOf(PoseidonPathUnavailableError);
          expect((error as PoseidonPathUnavailableError).path).toBe(path);
          return false;
        }
      })();
      expect(loaded, path).toBe(supportedHere[path]);
    }
  });

  it("keeps each loaded path after another is loaded in the same thread", () => {
    const first = loadNativePoseidon(p);
    const expected = first.path();
    const second = loadNativePoseidon(p, { path: "portable" });
    expect(second.path()).toBe("portable");
    expect(first.path()).toBe(expected);
    expect(first.poseidon3(1n, 2n, 3n)).toBe(second.poseidon3(1n, 2n, 3n));
    expect(first.searchBurnNonce([7n], 9n, 6)).toBe(second.searchBurnNonce([7n], 9n, 6));
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
      expect(implementation.searchBurnNonce([V2_DOMAIN, 123456789n], 1000n, 16), implementation.path).toBe(138276n);
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
        for (const implementation of natives) expect(implementation.poseidon2(a, b), `poseidon2(${a}, ${b}), ${implementation.path}`).toBe(expected);
      }
    }
  });

  it("equals poseidon-lite on every triple of field-boundary values, inputs at or above p included", () => {
    for (const a of boundaries) {
      for (const b of boundaries) {
        for (const c of boundaries) {
          const expected = poseidon3([a, b, c]);
          for (const implementation of natives) {
            if (implementation.poseidon3(a, b, c) !== expected) expect.unreachable(`poseidon3(${a}, ${b}, ${c}) differs (${implementation.path})`);
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
        if (implementation.poseidon2(a, b) !== expected) expect.unreachable(`poseidon2(${a}, ${b}) differs (${implementation.path})`);
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
        if (implementation.poseidon3(a, b, c) !== expected) expect.unreachable(`poseidon3(${a}, ${b}, ${c}) differs (${implementation.path})`);
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
        expect(implementation.searchBurnNonce([recipientFr], secretBase, powBits), `seed ${i}, ${implementation.path}`).toBe(expected);
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
        expect(implementation.searchBurnNonce([domain, recipientFr], secretBase, powBits), `seed ${i}, ${implementation.path}`).toBe(expected);
      }
    }
  });

  it("finds, on every multi-lane path, the smallest nonce the scalar search finds (10 to 13 bits, both widths)", () => {
    const lanePaths = natives.filter((implementation) => implementation !== scalar);
    let compared = 0;
    for (let i = 0; i < 24; i++) {
      const powBits = 10 + (i % 4);
      const prefix = i % 2 === 0 ? [word256("lanes-recipient", i) >> 8n] : [V2_DOMAIN, word256("lanes-recipient", i) >> 8n];
      // Some bases sit just below p, so lanes of one step straddle the wrap to 0.
      const secretBase = i % 6 === 0 ? p - 1n - BigInt(i) : word256("lanes-base", i) % p;
      const expected = scalar.searchBurnNonce(prefix, secretBase, powBits);
      for (const implementation of lanePaths) {
        expect(implementation.searchBurnNonce(prefix, secretBase, powBits), `seed ${i}, ${implementation.path}`).toBe(expected);
        compared++;
      }
    }
    expect(compared).toBe(24 * lanePaths.length);
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

  it("reads SVC_POSEIDON_PATH, and refuses other values without quoting them", () => {
    expect(parsePoseidonPath({})).toBe("auto");
    expect(parsePoseidonPath({ SVC_POSEIDON_PATH: "" })).toBe("auto");
    expect(parsePoseidonPath({ SVC_POSEIDON_PATH: "auto" })).toBe("auto");
    for (const path of NativePoseidonPathSchema.options) expect(parsePoseidonPath({ SVC_POSEIDON_PATH: path })).toBe(path);
    for (const value of ["AVX2", "ifma-8", "scalar", "secret-looking-value"]) {
      const error = (() => {
        try {
          parsePoseidonPath({ SVC_POSEIDON_PATH: value });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(InvalidPoseidonPathError);
      expect((error as Error).message).toContain("SVC_POSEIDON_PATH");
      expect((error as Error).message).not.toContain(value);
    }
  });

  it("searches on the path SVC_POSEIDON_PATH forces in a process, and derives the published vector there", async () => {
    const entry = fileURLToPath(new URL("../../../dist/index.js", import.meta.url));
    const script = `const s = await import(${JSON.stringify(entry)});
const d = s.deriveBurnAddress(s.zerc20Protocol("zerc20-v1"), 123456789n, 1000n);
const i = s.poseidonChoice().implementation;
console.log(JSON.stringify({ name: i.name, path: i.path, nonce: String(d.nonce) }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, SVC_POSEIDON: "native", SVC_POSEIDON_PATH: "portable" },
    });
    expect(JSON.parse(stdout)).toEqual({ name: "native", path: "portable", nonce: "4346" });
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
