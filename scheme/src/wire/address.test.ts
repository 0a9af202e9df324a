import { describe, expect, it } from "vitest";

import { AddressSchema, ChecksumAddressSchema } from "./address.js";

describe("AddressSchema", () => {
  it.each([
    ["checksummed", "0x5FbDB2315678afecb367f032d93F642f64180aa3"],
    ["lowercase", "0x5fbdb2315678afecb367f032d93f642f64180aa3"],
    ["uppercase digits", "0x5FBDB2315678AFECB367F032D93F642F64180AA3"],
  ])("accepts a %s address and keeps its spelling", (_label, address) => {
    expect(AddressSchema.parse(address)).toBe(address);
  });

  it.each([
    ["no prefix", "5FbDB2315678afecb367f032d93F642f64180aa3"],
    ["too short", "0x5FbDB2315678afecb367f032d93F642f64180aa"],
    ["too long", "0x5FbDB2315678afecb367f032d93F642f64180aa3a"],
    ["non-hex", "0x5FbDB2315678afecb367f032d93F642f64180aag"],
    ["bad checksum", "0x5FbDB2315678afecb367f032d93F642f64180Aa3"],
    ["upper-case prefix", "0X5FbDB2315678afecb367f032d93F642f64180aa3"],
  ])("rejects %s", (_label, address) => {
    expect(AddressSchema.safeParse(address).success).toBe(false);
  });

  it("rejects a non-string", () => {
    expect(AddressSchema.safeParse(42).success).toBe(false);
  });
});

describe("ChecksumAddressSchema", () => {
  it.each([
    ["checksummed", "0x5FbDB2315678afecb367f032d93F642f64180aa3"],
    ["lowercase", "0x5fbdb2315678afecb367f032d93f642f64180aa3"],
    ["uppercase digits", "0x5FBDB2315678AFECB367F032D93F642F64180AA3"],
  ])("writes a %s address in EIP-55 form", (_label, address) => {
    expect(ChecksumAddressSchema.parse(address)).toBe("0x5FbDB2315678afecb367f032d93F642f64180aa3");
  });

  it("still rejects a broken checksum", () => {
    expect(ChecksumAddressSchema.safeParse("0x5FbDB2315678afecb367f032d93F642f64180Aa3").success).toBe(false);
  });
});
