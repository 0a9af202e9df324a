import { encodeAbiParameters, hashStruct, hashTypedData, keccak256, recoverTypedDataAddress, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";

import { buildExtra, buildRequirements, TEST_CHALLENGE_NONCE, TEST_PAY_TO, TEST_PAYER, TEST_PAYER_KEY, TEST_TOKEN } from "../testing/builders.js";
import { fromOfferRequirements } from "../wire/offer.js";
import { permitBurnerAbi } from "../zerc20/abis.js";
import { BURN_AUTHORIZATION_TYPE, BURN_AUTHORIZATION_TYPEHASH, buildBurnAuthorizationTypedData, burnAuthorizationTypes } from "./burnAuthorizationTypedData.js";

/** The struct exactly as the spec writes it, kept literal here so the test does not trust our constant. */
const SPEC_TYPE = "BurnAuthorization(address token,address payer,address burnAddress,uint256 value,bytes32 challengeNonce,uint256 deadline)";

const account = privateKeyToAccount(TEST_PAYER_KEY);
const offer = fromOfferRequirements(buildRequirements({ amount: "2500" }));

describe("buildBurnAuthorizationTypedData", () => {
  it("signs with a local account and recovers the payer", async () => {
    const typedData = buildBurnAuthorizationTypedData({ offer, payer: TEST_PAYER });
    const signature = await account.signTypedData(typedData);
    await expect(recoverTypedDataAddress({ ...typedData, signature })).resolves.toBe(TEST_PAYER);
  });

  it("binds token, burn address, value, challenge and deadline from the offer, under the PermitBurner domain", () => {
    expect(buildBurnAuthorizationTypedData({ offer, payer: TEST_PAYER })).toMatchObject({
      domain: {
        name: "SvcPermitBurner",
        version: "1",
        chainId: 31337,
        verifyingContract: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
      },
      primaryType: "BurnAuthorization",
      message: {
        token: TEST_TOKEN,
        payer: TEST_PAYER,
        burnAddress: TEST_PAY_TO,
        value: 2500n,
        challengeNonce: TEST_CHALLENGE_NONCE,
        deadline: 1_900_000_300n,
      },
    });
  });

  it("uses the typehash keccak256 of the spec's type string", () => {
    expect(BURN_AUTHORIZATION_TYPE).toBe(SPEC_TYPE);
    expect(BURN_AUTHORIZATION_TYPEHASH).toBe(keccak256(toHex(SPEC_TYPE)));

    // viem derives the type string from `burnAuthorizationTypes`; recomputing the struct hash by hand with
    // the spec's typehash proves that derivation produces exactly the spec's string.
    const { message } = buildBurnAuthorizationTypedData({ offer, payer: TEST_PAYER });
    const byHand = keccak256(
      encodeAbiParameters(
        [{ type: "bytes32" }, { type: "address" }, { type: "address" }, { type: "address" }, { type: "uint256" }, { type: "bytes32" }, { type: "uint256" }],
        [keccak256(toHex(SPEC_TYPE)), message.token, message.payer, message.burnAddress, message.value, message.challengeNonce, message.deadline],
      ),
    );
    expect(hashStruct({ types: burnAuthorizationTypes, primaryType: "BurnAuthorization", data: message })).toBe(byHand);
  });

  it("matches the BurnAuthorization struct of the PermitBurner ABI field for field", () => {
    const permitAndBurn = permitBurnerAbi.find((item) => item.type === "function" && item.name === "permitAndBurn");
    const auth = permitAndBurn?.type === "function" ? permitAndBurn.inputs[0] : undefined;
    const components = auth && "components" in auth ? auth.components : [];
    expect(components.map(({ name, type }) => ({ name, type }))).toEqual(burnAuthorizationTypes.BurnAuthorization);
  });

  it("changes the digest when any bound field changes", () => {
    const digest = hashTypedData(buildBurnAuthorizationTypedData({ offer, payer: TEST_PAYER }));
    const variants = [
      buildRequirements({ amount: "2501" }),
      buildRequirements({ amount: "2500", payTo: TEST_TOKEN }),
      buildRequirements({ amount: "2500", network: "eip155:1" }),
      buildRequirements({ amount: "2500", extra: buildExtra({ deadline: 1 }) }),
      buildRequirements({ amount: "2500", extra: buildExtra({ challengeNonce: keccak256(toHex("other")) }) }),
    ];
    for (const variant of variants) {
      expect(hashTypedData(buildBurnAuthorizationTypedData({ offer: fromOfferRequirements(variant), payer: TEST_PAYER }))).not.toBe(digest);
    }
  });
});
