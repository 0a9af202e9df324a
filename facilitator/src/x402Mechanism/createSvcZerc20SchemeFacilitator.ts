import { SCHEME } from "@svc/scheme";
import type { PaymentPayload, PaymentRequirements, SchemeNetworkFacilitator, SettleResponse, VerifyResponse } from "@x402/core/types";
import type { InProcessSettlement } from "../daemon/createInProcessSettlement.js";
import { classifySchemeCall } from "./classifySchemeCall.js";

/** The CAIP family core groups this mechanism's signers under in `getSupported()`. */
export const SVC_ZERC20_CAIP_FAMILY = "eip155:*";

/** Inputs to {@link createSvcZerc20SchemeFacilitator}. */
export type CreateSvcZerc20SchemeFacilitatorParameters = {
  /** The running daemon's in-process settlement (`RunningDaemon.settlement`). */
  settlement: Pick<InProcessSettlement, "verify" | "settle">;
};

/**
 * The svc-zerc20 mechanism for @x402/core's `x402Facilitator`: register it beside `exact` and the official
 * facilitator verifies and settles svc-zerc20 payments through our daemon's settlement, in the same process
 * (journal, challenge store, settle claims, relayer and finalize loop stay the daemon's). Each call is read as
 * the body our `/verify` or `/settle` would have received (see `classifySchemeCall`), so it gets the same
 * reason codes and the same response; a malformed or hostile payload is `malformed_payload` (or
 * `unsupported_scheme`), never an exception. Like our `GET /supported` it declares no extra and no signers.
 * The only throws are the daemon's own: stopped, or an internal error it logged, both without secrets.
 *
 * @example
 * const daemon = await startDaemon({ configPath: "facilitator.toml", env: process.env });
 * const facilitator = new x402Facilitator()
 *   .register("eip155:8453", createSvcZerc20SchemeFacilitator({ settlement: daemon.settlement }));
 * registerExactEvmScheme(facilitator, { signer, networks: "eip155:8453" });
 */
export function createSvcZerc20SchemeFacilitator(parameters: CreateSvcZerc20SchemeFacilitatorParameters): SchemeNetworkFacilitator {
  const { settlement } = parameters;
  return {
    scheme: SCHEME,
    caipFamily: SVC_ZERC20_CAIP_FAMILY,
    getExtra: () => undefined,
    getSigners: () => [],
    verify: (payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse> =>
      settlement.verify(classifySchemeCall(payload, requirements)),
    settle: (payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> =>
      settlement.settle(classifySchemeCall(payload, requirements)),
  };
}
