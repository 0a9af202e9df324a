import { type Address, type Hex, keccak256, numberToHex, recoverAddress, toHex } from "viem";
import { privateKeyToAccount, sign } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { recoverSigner, signerRecoveryImplementation } from "./recoverSigner.js";

/** The order of the secp256k1 group. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const viaViem = (digest: Hex, signature: Hex): Promise<Address | undefined> => recoverAddress({ hash: digest, signature }).catch(() => undefined);

/** Deterministic keys and digests, so a failure names an input that fails again. */
const keyOf = (i: number): Hex => keccak256(toHex(`key ${i}`));
const digestOf = (i: number): Hex => keccak256(toHex(`digest ${i}`));

const word = (value: bigint): string => numberToHex(value, { size: 32 }).slice(2);
const vByte = (v: number): string => v.toString(16).padStart(2, "0");
const parts = (signature: Hex) => ({
  r: BigInt(`0x${signature.slice(2, 66)}`),
  s: BigInt(`0x${signature.slice(66, 130)}`),
  v: Number.parseInt(signature.slice(130), 16),
});
const build = (r: bigint, s: bigint, v: number): Hex => `0x${word(r)}${word(s)}${vByte(v)}`;

async function expectSameAnswer(digest: Hex, signature: Hex): Promise<Address | undefined> {
  const expected = await viaViem(digest, signature);
  expect({ digest, signature, signer: await recoverSigner(digest, signature) }).toEqual({ digest, signature, signer: expected });
  return expected;
}

describe("recoverSigner", () => {
  it("runs on the native build here, so the comparisons below exercise libsecp256k1", () => {
    expect(signerRecoveryImplementation).toBe("libsecp256k1");
  });

  it("recovers the address viem recovers for 2,000 signatures by random keys, v as 27/28 (and for a quarter of them as 0/1)", async () => {
    for (let i = 0; i < 2000; i++) {
      const privateKey = keyOf(i);
      const digest = digestOf(i);
      const signature = await sign({ hash: digest, privateKey, to: "hex" });
      const { r, s, v } = parts(signature);
      const signer = privateKeyToAccount(privateKey).address;
      expect(await expectSameAnswer(digest, signature)).toBe(signer);
      if (i % 4 === 0) expect(await expectSameAnswer(digest, build(r, s, v - 27))).toBe(signer);
    }
  });

  it("answers as viem for high s, r or s out of range, every v byte, wrong lengths and non-hex input", async () => {
    const privateKey = keyOf(0);
    const signer = privateKeyToAccount(privateKey).address;
    const digest = digestOf(0);
    const signature = await sign({ hash: digest, privateKey, to: "hex" });
    const { r, s, v } = parts(signature);
    const flipped = v === 27 ? 28 : 27;

    // High s with the other parity is the same signature's twin: viem and ecrecover recover the signer.
    expect(await expectSameAnswer(digest, build(r, N - s, flipped))).toBe(signer);
    expect(await expectSameAnswer(digest, build(r, N - s, flipped - 27))).toBe(signer);
    // With the same parity it recovers someone else, in both.
    const other = await expectSameAnswer(digest, build(r, N - s, v));
    expect(other).toBeDefined();
    expect(other).not.toBe(signer);

    for (const [badR, badS] of [
      [0n, s],
      [r, 0n],
      [0n, 0n],
      [N, s],
      [r, N],
      [N + 1n, s],
      [r, N + 1n],
      [2n ** 256n - 1n, s],
      [r, 2n ** 256n - 1n],
    ] as const) {
      expect(await expectSameAnswer(digest, build(badR, badS, v))).toBeUndefined();
    }
    // In range but at the edges: both either recover the same address or refuse.
    for (const [edgeR, edgeS] of [
      [1n, 1n],
      [N - 1n, s],
      [r, N - 1n],
      [1n, N - 1n],
      [N - 1n, N - 1n],
    ] as const) {
      await expectSameAnswer(digest, build(edgeR, edgeS, v));
      await expectSameAnswer(digest, build(edgeR, edgeS, flipped));
    }
    // r values with no point on the curve (x³ + 7 not a square) refuse in both; scan a few small ones.
    let refused = 0;
    for (let x = 1n; x <= 40n; x++) {
      if ((await expectSameAnswer(digest, build(x, s, v))) === undefined) refused++;
    }
    expect(refused).toBeGreaterThan(0);

    // Every v byte: only 0, 1, 27 and 28 recover.
    for (let byte = 0; byte <= 255; byte++) {
      const answer = await expectSameAnswer(digest, build(r, s, byte));
      expect(answer !== undefined).toBe([0, 1, 27, 28].includes(byte));
    }
    // Hex case does not matter to either.
    expect(await expectSameAnswer(digest.toUpperCase().replace("0X", "0x") as Hex, signature.toUpperCase().replace("0X", "0x") as Hex)).toBe(signer);

    const compact = `0x${word(r)}${word(v === 28 ? s | (1n << 255n) : s)}` as Hex;
    for (const wrong of [
      compact, // ERC-2098's 64-byte form: viem refuses it, so do we
      "0x",
      `${signature}00`,
      signature.slice(0, 130),
      signature.slice(0, 131),
      `${signature}0`,
      `0x${"zz".repeat(65)}`,
      `0X${signature.slice(2)}`,
      `${signature.slice(0, 100)}g${signature.slice(101)}`,
      "x".repeat(65), // a 65-character non-hex string: viem reads its UTF-8 bytes as r ‖ s ‖ v
      "",
    ]) {
      await expectSameAnswer(digest, wrong as Hex);
    }
  });

  it("answers as viem for digests at and beyond the group order, of other lengths and non-hex", async () => {
    const privateKey = keyOf(1);
    for (const digest of [`0x${word(0n)}`, `0x${word(1n)}`, `0x${word(N - 1n)}`, `0x${word(N)}`, `0x${word(N + 1n)}`, `0x${"ff".repeat(32)}`] as Hex[]) {
      const signature = await sign({ hash: digest, privateKey, to: "hex" });
      expect(await expectSameAnswer(digest, signature)).toBe(privateKeyToAccount(privateKey).address);
    }
    const signature = await sign({ hash: digestOf(1), privateKey, to: "hex" });
    for (const digest of [digestOf(1).slice(0, 64), `${digestOf(1)}00`, digestOf(1).slice(0, 65), "0x", `0x${"zz".repeat(32)}`, "y".repeat(32)]) {
      await expectSameAnswer(digest as Hex, signature);
    }
  });

  it("refuses a signature whose recovered point is at infinity, as viem does", async () => {
    // With R = kG and digest z = s·k mod n, the recovered key r⁻¹(sR − zG) is the point at infinity.
    for (let i = 0; i < 8; i++) {
      const k = BigInt(keyOf(100 + i)) % N;
      const publicR = privateKeyToAccount(numberToHex(k, { size: 32 })).publicKey;
      const x = BigInt(`0x${publicR.slice(4, 68)}`);
      const yOdd = BigInt(`0x${publicR.slice(68)}`) & 1n;
      const s = BigInt(digestOf(100 + i)) % N;
      const digest = `0x${word((s * k) % N)}` as Hex;
      // x < n for all but a negligible share of points; skip the rare one whose r would wrap.
      if (x >= N) continue;
      expect(await expectSameAnswer(digest, build(x, s, 27 + Number(yOdd)))).toBeUndefined();
    }
  });
});
