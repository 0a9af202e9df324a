import { describe, expect, it } from "vitest";
import { keccak256, stringToHex } from "viem";
import { openEmbeddedStorage } from "./openEmbeddedStorage.js";

const nonceOf = (label: string) => keccak256(stringToHex(label));
const open = (completedClaimsKept: number) =>
  openEmbeddedStorage({ journalPath: null, challenges: { maxOpenChallenges: 10, retentionSeconds: 60 }, completedClaimsKept });

describe("embedded settle claims", () => {
  it("remember only the latest completed claims; an older one may be claimed again, a recent one never", async () => {
    const storage = await open(3);
    for (const label of ["a", "b", "c", "d"]) {
      expect(await storage.settleClaims.claim(nonceOf(label), "owner", 60_000)).toBe(true);
      expect(await storage.settleClaims.complete(nonceOf(label), "owner")).toBe(true);
    }
    // "a" fell out of the remembered window: the book, not the marker, answers its re-send.
    expect(await storage.settleClaims.claim(nonceOf("a"), "other", 60_000)).toBe(true);
    for (const label of ["b", "c", "d"]) expect(await storage.settleClaims.claim(nonceOf(label), "other", 60_000)).toBe(false);
    await storage.close();
  });

  it("forget no live lease when the window moves", async () => {
    const storage = await open(1);
    expect(await storage.settleClaims.claim(nonceOf("live"), "owner", 60_000)).toBe(true);
    for (const label of ["x", "y", "z"]) {
      await storage.settleClaims.claim(nonceOf(label), "owner", 60_000);
      await storage.settleClaims.complete(nonceOf(label), "owner");
    }
    expect(await storage.settleClaims.claim(nonceOf("live"), "other", 60_000)).toBe(false);
    await storage.close();
  });
});
