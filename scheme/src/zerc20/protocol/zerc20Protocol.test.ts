/**
 * Golden vectors of both protocol versions, taken from the protocol's published facts (`zerc20-real.md` in
 * the team's shared notes: burn-address vectors reproduced independently, selectors and topics computed from
 * the published signatures). Every expected value here is written out, never computed by the code under test.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type Abi, type AbiFunction, toEventSelector, toFunctionSelector } from "viem";
import { generalRecipientField } from "../recipientHash.js";
import { emptyTreeRoot } from "../merkle.js";
import { burnAddressFromHash, meetsBurnAddressPow, openBurnAddress } from "../burnAddress.js";
import { groth16VerifierAbi } from "../abis.js";
import { zerc20Protocol } from "./zerc20Protocol.js";

const v1 = zerc20Protocol("zerc20-v1");
const v2 = zerc20Protocol("zerc20-v2");
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as const;

describe("burn address", () => {
  it("v1: P2(R, s) with 12 bits, R = 123456789, base 1000, nonce 4346", () => {
    expect(v1.burnAddressPowBits).toBe(12);
    expect(openBurnAddress(v1, 123456789n, 1000n + 4346n)?.toLowerCase()).toBe("0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8");
    expect(openBurnAddress(v1, 123456789n, 1000n + 4345n)).toBeUndefined();
  });

  it("v2: P3(0x6e727562, R, s) with 16 bits, R = 123456789, base 1000, nonce 138276", () => {
    expect(v2.burnAddressPowBits).toBe(16);
    expect(v2.burnAddressPrefix(123456789n)).toEqual([1852994914n, 123456789n]);
    expect(openBurnAddress(v2, 123456789n, 1000n + 138276n)?.toLowerCase()).toBe("0x3034a16d0e8b774fc609a8adcbe89ed3c5bad8c3");
  });

  it("a v1 secret opens no v2 address, and the v2 formula gives another address", () => {
    expect(openBurnAddress(v2, 123456789n, 1000n + 4346n)).toBeUndefined();
    const h = v2.burnAddressHash(123456789n, 1000n + 4346n);
    expect(burnAddressFromHash(h).toLowerCase()).not.toBe("0x14c7a9ca62574b09437a1eaf1cc92a5aa869d2f8");
    expect(meetsBurnAddressPow(v1, v1.burnAddressHash(123456789n, 5346n))).toBe(true);
  });
});

describe("transfer leaf", () => {
  it("v1: P2(to, value); P2(1, 2)", () => {
    expect(v1.transferLeaf({ from: address(9), to: address(1), value: 2n })).toBe(0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189an);
  });

  it("v2: P3(from, to, value); P3(1, 2, 3)", () => {
    expect(v2.transferLeaf({ from: address(1), to: address(2), value: 3n })).toBe(0x0e7732d89e6939c0ff03d5e58dab6302f3230e269dc5b968f725df34ab36d732n);
  });
});

describe("hash chain", () => {
  it("v1: sha256(H ‖ to ‖ value) mod 2^248, all zero", () => {
    expect(v1.nextHashChain(0n, { from: address(5), to: address(0), value: 0n })).toBe(0x00ea5e6a3ec5f5474a26d858bc77b6d7bd3ab864ea02d988683fdc648602b248n);
  });

  it("v2: sha256(H ‖ from ‖ to ‖ value) mod 2^248", () => {
    const from = `0x${"11".repeat(20)}` as const;
    const to = `0x${"22".repeat(20)}` as const;
    expect(v2.nextHashChain(0n, { from, to, value: 0x333n })).toBe(0x00b499aa085c64d5668ec9512d24a54cb7cf7174543dd1dd5a806f77d0bb3e93n);
  });
});

describe("shared facts", () => {
  it("the empty height-40 tree's root is provedTransferRoots[0]", () => {
    expect(emptyTreeRoot()).toBe(8687547638004116013653730449839507042090717944911454416140763808366589487233n);
  });

  it("R = 2^248 + (sha256(be64(chainId) ‖ recipient ‖ tweak) mod 2^248)", () => {
    const recipient = `0x${"00".repeat(12)}${"70997970c51812dc3a010c7d01b50e0d17dc79c8"}` as const;
    const tweak = `0x${"ab".repeat(32)}` as const;
    const digest = createHash("sha256")
      .update(Buffer.concat([Buffer.from("0000000000066eee", "hex"), Buffer.from(recipient.slice(2), "hex"), Buffer.from(tweak.slice(2), "hex")]))
      .digest("hex");
    expect(generalRecipientField({ chainId: 421614n, recipient, tweak })).toBe((1n << 248n) + (BigInt(`0x${digest}`) % (1n << 248n)));
  });
});

function selectorOf(abi: Abi, kind: "function" | "event" | "error", name: string, inputs?: number): string {
  const item = abi.find((entry) => entry.type === kind && entry.name === name && (inputs === undefined || entry.inputs.length === inputs));
  if (!item) throw new TypeError(`no ${kind} ${name}`);
  if (item.type === "event") return toEventSelector(item);
  // An error's selector is formed like a function's: the first four bytes of the signature's hash.
  return toFunctionSelector(item as AbiFunction);
}

describe("published selectors and topics", () => {
  const common: [string, number | undefined, string][] = [
    ["latestProvedIndex", undefined, "0x9f487dbd"],
    ["provedTransferRoots", undefined, "0x1bb29877"],
    ["totalTeleported", undefined, "0x69cc1d27"],
    ["singleTeleport", 4, "0xd4d12244"],
    ["teleport", 4, "0x9854265f"],
    ["hubEid", undefined, "0x4600f17c"],
    ["reserveHashChain", undefined, "0x63373bdc"],
    ["latestReservedIndex", undefined, "0xe9debe05"],
    ["reservedHashChains", undefined, "0xe2910dd3"],
    ["proveTransferRoot", undefined, "0x11d29723"],
    ["globalTransferRoots", undefined, "0xc172e9e3"],
    ["paused", undefined, "0x5c975abb"],
    ["activateEmergency", undefined, "0x457e8b97"],
    ["deactivateEmergency", undefined, "0xfa686948"],
  ];

  it.each(common)("verifier %s (both versions)", (name, inputs, selector) => {
    expect(selectorOf(v1.verifierAbi, "function", name, inputs)).toBe(selector);
    expect(selectorOf(v2.verifierAbi, "function", name, inputs)).toBe(selector);
  });

  it("v2's relayer-fee overloads and prover allow-list", () => {
    expect(selectorOf(v2.verifierAbi, "function", "singleTeleport", 5)).toBe("0x9d8d631e");
    expect(selectorOf(v2.verifierAbi, "function", "teleport", 5)).toBe("0x77ec8503");
    expect(selectorOf(v2.verifierAbi, "function", "isAllowedProver")).toBe("0x89e8dd9f");
    expect(() => selectorOf(v1.verifierAbi, "function", "isAllowedProver")).toThrow();
  });

  it.each([
    ["NothingToWithdraw", "0x174ca8da"],
    ["ExpectedRootZero", "0x098bd705"],
    ["TransferRootMismatch", "0x3af6a3ee"],
    ["RecipientMismatch", "0x971ca9a9"],
    ["InvalidRecipientChainId", "0x22ff97ba"],
    ["InvalidProof", "0x09bde339"],
  ])("verifier error %s", (name, selector) => {
    expect(selectorOf(v1.verifierAbi, "error", name)).toBe(selector);
    expect(selectorOf(v2.verifierAbi, "error", name)).toBe(selector);
  });

  it("v2-only errors", () => {
    expect(selectorOf(v2.verifierAbi, "error", "UnauthorizedProver")).toBe("0xf1ea59d6");
    expect(selectorOf(v2.verifierAbi, "error", "EnforcedPause")).toBe("0xd93c0665");
  });

  it("mint events: each version's Teleport, v2's relayer-fee event, and the root event", () => {
    expect(toEventSelector(v1.teleportEvent)).toBe("0xb7d7623245cb52e55db0c4265c68f0507e52aadd4f195cfdafaf1ea5d107e72d");
    expect(toEventSelector(v2.teleportEvent)).toBe("0x30ce5e5a039f8d58997d73d7977f2b4bee9bd3917a6232f95277cc1b5fc62621");
    expect(selectorOf(v2.verifierAbi, "event", "TeleportWithRelayerFee")).toBe("0x8346829da0d31361eaed25a60c76f61f65c5eb296f39bc1fc4cccb35b0399822");
  });

  it.each([
    ["index", "0x2986c0e5"],
    ["hashChain", "0xc841eccb"],
    ["verifier", "0x2b7ac3f3"],
    ["minter", "0x07546172"],
    ["teleport", "0x04ddf0a5"],
  ])("token %s (both versions)", (name, selector) => {
    expect(selectorOf(v1.tokenAbi, "function", name)).toBe(selector);
    expect(selectorOf(v2.tokenAbi, "function", name)).toBe(selector);
  });

  it("token events and errors", () => {
    for (const protocol of [v1, v2]) {
      expect(selectorOf(protocol.tokenAbi, "event", "IndexedTransfer")).toBe("0xb9285eeffc25fae3689fd1d4d3245dbc73f87f3bc8cb50c1de55574221805d0d");
      expect(selectorOf(protocol.tokenAbi, "error", "ValueTooLarge")).toBe("0x2ad907fb");
      expect(selectorOf(protocol.tokenAbi, "error", "OnlyVerifier")).toBe("0x7a241b02");
      expect(selectorOf(protocol.tokenAbi, "error", "OnlyMinter")).toBe("0x9cdc2ed5");
    }
    expect(selectorOf(v2.tokenAbi, "function", "totalTeleported")).toBe("0x3fadb8ff");
    expect(v1.tokenHasPermit).toBe(false);
    expect(v2.tokenHasPermit).toBe(true);
    expect(() => selectorOf(v1.tokenAbi, "function", "permit")).toThrow();
  });
});

describe("proof verifier", () => {
  it("Groth16 verifyProof(uint256[2],uint256[2][2],uint256[2],uint256[3])", () => {
    expect(selectorOf(groth16VerifierAbi, "function", "verifyProof")).toBe("0x11479fea");
  });
});
