import { type Hex, keccak256, recoverAddress, toHex } from "viem";
import { privateKeyToAccount, sign } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";

// The native build missing, as on a platform the package ships no prebuild for.
vi.mock("node:module", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:module")>();
  return {
    ...original,
    createRequire: (from: string | URL) => {
      const require = original.createRequire(from);
      return Object.assign((id: string) => {
        if (id === "secp256k1/bindings") throw new Error("No native build was found");
        return require(id);
      }, require);
    },
  };
});

const { recoverSigner, signerRecoveryImplementation } = await import("./recoverSigner.js");

describe("recoverSigner without the native build", () => {
  it("falls back to viem's recovery and answers as viem does", async () => {
    expect(signerRecoveryImplementation).toBe("@noble/curves");
    const privateKey = keccak256(toHex("fallback key"));
    const digest = keccak256(toHex("fallback digest"));
    const signature = await sign({ hash: digest, privateKey, to: "hex" });
    expect(await recoverSigner(digest, signature)).toBe(privateKeyToAccount(privateKey).address);
    expect(await recoverSigner(digest, signature)).toBe(await recoverAddress({ hash: digest, signature }));
    const badV = `${signature.slice(0, 130)}1d` as Hex;
    expect(await recoverSigner(digest, badV)).toBeUndefined();
    expect(await recoverSigner(digest, signature.slice(0, 130) as Hex)).toBeUndefined();
  });
});
