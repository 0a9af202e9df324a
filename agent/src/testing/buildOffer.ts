import { type PaymentRequired, type PaymentRequirements, SCHEME, type SubethaExtra } from "@svc/scheme";

/** The builders' offers expire at this unix second; tests pin their clock relative to it. */
export const TEST_EXPIRES_AT = 1_900_000_300;

/** A token address for offers built in tests. */
export const TEST_TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3";

/** Builds an offer's `extra` with the gasless path; override any field, `undefined` removes it. */
export function buildExtra(overrides: Partial<SubethaExtra> = {}): SubethaExtra {
  return {
    challengeNonce: "0x1111111111111111111111111111111111111111111111111111111111111111",
    expiresAt: TEST_EXPIRES_AT,
    helper: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
    deadline: TEST_EXPIRES_AT,
    ...overrides,
  };
}

/** Builds an svc-zerc20 offer on the local chain with overrides. */
export function buildOffer(overrides: Partial<PaymentRequirements> = {}): PaymentRequirements {
  return {
    scheme: SCHEME,
    network: "eip155:31337",
    asset: TEST_TOKEN,
    amount: "1000",
    payTo: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
    maxTimeoutSeconds: 300,
    extra: buildExtra(),
    ...overrides,
  };
}

/** Builds a 402 body carrying `offers`. */
export function buildPaymentRequired(offers: PaymentRequirements[] = [buildOffer()]): PaymentRequired {
  return { x402Version: 2, error: "Payment required", resource: { url: "http://127.0.0.1/weather" }, accepts: offers };
}
