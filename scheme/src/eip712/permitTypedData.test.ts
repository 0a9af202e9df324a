import { concat, encodeAbiParameters, hashTypedData, keccak256, recoverTypedDataAddress, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { PermitUnavailableError } from "./errors.js";
import { buildExtra, buildRequirements, TEST_HELPER, TEST_PAYER, TEST_PAYER_KEY, TEST_TOKEN } from "../testing/builders.js";
import { fromOfferRequirements } from "../wire/offer.js";
import { PaymentRequirementsSchema } from "../wire/paymentRequirements.js";
import { buildPermitTypedData } from "./permitTypedData.js";

const account = privateKeyToAccount(TEST_PAYER_KEY);
const requirements = buildRequirements({ amount: "2500" });
const parameters = { offer: fromOfferRequirements(requirements), payer: TEST_PAYER, nonce: 7n, tokenName: "zkERC20 Test" };

describe("buildPermitTypedData", () => {
  it("signs with a local account and recovers the payer", async () => {
    const typedData = buildPermitTypedData(parameters);
    const signature = await account.signTypedData(typedData);
    await expect(recoverTypedDataAddress({ ...typedData, signature })).resolves.toBe(TEST_PAYER);
  });

  it("takes every message field from the offer", () => {
    expect(buildPermitTypedData(parameters)).toEqual({
      domain: { name: "zkERC20 Test", version: "1", chainId: 31337, verifyingContract: TEST_TOKEN },
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: {
        owner: TEST_PAYER,
        spender: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
        value: 2500n,
        nonce: 7n,
        deadline: 1_900_000_300n,
      },
    });
  });

  it("hashes to the EIP-2612 digest computed by hand", () => {
    const domainSeparator = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "address" }],
        [
          keccak256(toHex("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")),
          keccak256(toHex("zkERC20 Test")),
          keccak256(toHex("1")),
          31337n,
          TEST_TOKEN,
        ],
      ),
    );
    const structHash = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "address" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
        [
          keccak256(toHex("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)")),
          TEST_PAYER,
          "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
          2500n,
          7n,
          1_900_000_300n,
        ],
      ),
    );
    const digest = keccak256(concat(["0x1901", domainSeparator, structHash]));
    expect(hashTypedData(buildPermitTypedData(parameters))).toBe(digest);
  });

  it("gives payer and facilitator the same digest from the offer and its echoed, re-parsed copy", () => {
    const echoed = PaymentRequirementsSchema.parse(JSON.parse(JSON.stringify({ ...requirements, futureField: 1 })));
    const recased = buildRequirements({ amount: "2500", asset: "0x5fbdb2315678afecb367f032d93f642f64180aa3" });
    const digest = hashTypedData(buildPermitTypedData(parameters));
    expect(hashTypedData(buildPermitTypedData({ ...parameters, offer: fromOfferRequirements(echoed) }))).toBe(digest);
    expect(hashTypedData(buildPermitTypedData({ ...parameters, offer: fromOfferRequirements(recased) }))).toBe(digest);
  });

  it("accepts an all-uppercase address spelling that viem's strict check would refuse", () => {
    const upper = `0x${TEST_HELPER.slice(2).toUpperCase()}` as const;
    const typedData = buildPermitTypedData({
      ...parameters,
      offer: fromOfferRequirements(buildRequirements({ amount: "2500", extra: buildExtra({ helper: upper }) })),
    });
    expect(hashTypedData(typedData)).toBe(hashTypedData(buildPermitTypedData(parameters)));
  });

  it("refuses an offer without the gasless path", () => {
    const noHelper = buildRequirements({ extra: buildExtra({ helper: undefined }) });
    expect(() => buildPermitTypedData({ ...parameters, offer: fromOfferRequirements(noHelper) })).toThrowErrorMatchingInlineSnapshot(`
      [PermitUnavailableError: The offer does not support the gasless permit path.

      Details: missing extra.helper]
    `);
    const neither = buildRequirements({ extra: buildExtra({ helper: undefined, deadline: undefined }) });
    expect(() => buildPermitTypedData({ ...parameters, offer: fromOfferRequirements(neither) })).toThrow(PermitUnavailableError);
  });
});
