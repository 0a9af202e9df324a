/**
 * Small builders for wire values with overrides, for tests in every package. Values are fixed, not random,
 * so a failing test prints the same data every run; the payer key is derived from a label, not a well-known
 * development key, so it can never hold anything.
 */
import { keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import type { ChallengeOffer } from "../wire/challengeOffer.js";
import type { FacilitatorRequest } from "../wire/facilitatorRequest.js";
import type { PaymentPayload } from "../wire/paymentPayload.js";
import type { PaymentRequired } from "../wire/paymentRequired.js";
import type { PaymentRequirements } from "../wire/paymentRequirements.js";
import type { PermitPayload } from "../wire/permitPayload.js";
import type { ResourceInfo } from "../wire/resourceInfo.js";
import { SCHEME, X402_VERSION } from "../wire/scheme.js";
import type { SelfTransferPayload } from "../wire/selfTransferPayload.js";
import type { SettleResponse } from "../wire/settleResponse.js";
import type { SubethaExtra } from "../wire/subethaExtra.js";
import type { SupportedResponse } from "../wire/supportedResponse.js";
import type { VerifyResponse } from "../wire/verifyResponse.js";

/** The local anvil chain id the fixtures use. */
export const TEST_CHAIN_ID = 31337;

/** A throwaway payer key for signing in tests. */
export const TEST_PAYER_KEY = keccak256(toHex("svc-zerc20 test payer"));

/** The address of `TEST_PAYER_KEY`. */
export const TEST_PAYER = privateKeyToAccount(TEST_PAYER_KEY).address;

/** The unix second the builders' offers expire at; tests pin their clock relative to it. */
export const TEST_EXPIRES_AT = 1_900_000_300;

/** A token address, checksummed. */
export const TEST_TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/** A PermitBurner address, all lowercase (case must survive every round trip). */
export const TEST_HELPER = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";

/** A burn address, checksummed. */
export const TEST_PAY_TO = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";

/** A challenge nonce. */
export const TEST_CHALLENGE_NONCE = keccak256(toHex("svc-zerc20 test challenge"));

/** A burn transaction hash. */
export const TEST_BURN_TX_HASH = keccak256(toHex("svc-zerc20 test burn"));

/** Builds a `SubethaExtra` with the gasless path offered. */
export function buildExtra(overrides: Partial<SubethaExtra> = {}): SubethaExtra {
  return {
    challengeNonce: TEST_CHALLENGE_NONCE,
    expiresAt: TEST_EXPIRES_AT,
    helper: TEST_HELPER,
    deadline: TEST_EXPIRES_AT,
    ...overrides,
  };
}

/** Builds an svc-zerc20 offer; `extra` overrides replace the whole extra (use `buildExtra` to tweak it). */
export function buildRequirements(overrides: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return {
    scheme: SCHEME,
    network: `eip155:${TEST_CHAIN_ID}`,
    asset: TEST_TOKEN,
    amount: "1000000000000000000",
    payTo: TEST_PAY_TO,
    maxTimeoutSeconds: 300,
    extra: buildExtra(),
    ...overrides,
  };
}

/** Builds the x402 resource description. */
export function buildResourceInfo(overrides: Partial<ResourceInfo> = {}): ResourceInfo {
  return {
    url: "http://127.0.0.1:4021/weather",
    description: "Weather report",
    mimeType: "application/json",
    ...overrides,
  };
}

/** Builds a 402 body offering one svc-zerc20 payment. */
export function buildPaymentRequired(overrides: Partial<PaymentRequired> = {}): PaymentRequired {
  return {
    x402Version: X402_VERSION,
    error: "Payment required",
    resource: buildResourceInfo(),
    accepts: [buildRequirements()],
    ...overrides,
  };
}

/** Builds a well-formed permit payload (the signatures are shaped right but sign nothing). */
export function buildPermitPayload(overrides: Partial<PermitPayload> = {}): PermitPayload {
  return {
    challengeNonce: TEST_CHALLENGE_NONCE,
    payer: TEST_PAYER,
    permit: {
      value: "1000000000000000000",
      nonce: "0",
      deadline: "1900000300",
      v: 27,
      r: keccak256(toHex("r")),
      s: keccak256(toHex("s")),
    },
    burnAuthSig: `0x${"11".repeat(64)}1b`,
    ...overrides,
  };
}

/** Builds a self-transfer payload. */
export function buildSelfTransferPayload(overrides: Partial<SelfTransferPayload> = {}): SelfTransferPayload {
  return { challengeNonce: TEST_CHALLENGE_NONCE, burnTxHash: TEST_BURN_TX_HASH, ...overrides };
}

/** Builds a payment envelope echoing `buildRequirements()` with a self-transfer payload. */
export function buildPaymentPayload(overrides: Partial<PaymentPayload> = {}): PaymentPayload {
  return {
    x402Version: X402_VERSION,
    accepted: buildRequirements(),
    payload: buildSelfTransferPayload(),
    resource: buildResourceInfo(),
    ...overrides,
  };
}

/** Builds a `/verify` or `/settle` request body. */
export function buildFacilitatorRequest(overrides: Partial<FacilitatorRequest> = {}): FacilitatorRequest {
  return {
    x402Version: X402_VERSION,
    paymentPayload: buildPaymentPayload(),
    paymentRequirements: buildRequirements(),
    ...overrides,
  };
}

/** Builds a successful verify answer. */
export function buildVerifyResponse(overrides: Partial<VerifyResponse> = {}): VerifyResponse {
  return { isValid: true, payer: TEST_PAYER, ...overrides };
}

/** Builds an accepted settle answer. */
export function buildSettleResponse(overrides: Partial<SettleResponse> = {}): SettleResponse {
  return {
    success: true,
    transaction: TEST_BURN_TX_HASH,
    network: `eip155:${TEST_CHAIN_ID}`,
    payer: TEST_PAYER,
    extra: { phase: "accepted" },
    ...overrides,
  };
}

/** Builds a `POST /challenge` answer matching `buildRequirements()`. */
export function buildChallengeOffer(overrides: Partial<ChallengeOffer> = {}): ChallengeOffer {
  return {
    payTo: TEST_PAY_TO,
    amount: "1000000000000000000",
    token: TEST_TOKEN,
    chainId: TEST_CHAIN_ID,
    challengeNonce: TEST_CHALLENGE_NONCE,
    expiresAt: 1_900_000_300,
    helper: TEST_HELPER,
    deadline: 1_900_000_300,
    ...overrides,
  };
}

/** Builds the `GET /supported` body of a local facilitator. */
export function buildSupportedResponse(overrides: Partial<SupportedResponse> = {}): SupportedResponse {
  return {
    kinds: [{ x402Version: X402_VERSION, scheme: SCHEME, network: `eip155:${TEST_CHAIN_ID}` }],
    extensions: [],
    signers: {},
    ...overrides,
  };
}
