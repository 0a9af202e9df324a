/**
 * `@svc/scheme/testing`: the scheme's test builders and fake chain for tests in every package. A test-only
 * subpath: it points at the TypeScript sources (vitest and `tsc -p tsconfig.test.json` read them), is left
 * out of `dist/`, and product code never imports it.
 */
export {
  buildChallengeOffer,
  buildExtra,
  buildFacilitatorRequest,
  buildPaymentPayload,
  buildPaymentRequired,
  buildPermitPayload,
  buildRequirements,
  buildResourceInfo,
  buildSelfTransferPayload,
  buildSettleResponse,
  buildSupportedResponse,
  buildVerifyResponse,
  TEST_BURN_TX_HASH,
  TEST_CHAIN_ID,
  TEST_CHALLENGE_NONCE,
  TEST_EXPIRES_AT,
  TEST_HELPER,
  TEST_PAY_TO,
  TEST_PAYER,
  TEST_PAYER_KEY,
  TEST_TOKEN,
} from "./builders.js";
export { createFakeChain, type FakeChain, type FakeChainOptions } from "./fakeChain.js";
