import type { x402Facilitator } from "@x402/core/facilitator";
import type { InProcessSettlement } from "../daemon/createInProcessSettlement.js";
import { createSvcZerc20SchemeFacilitator } from "./createSvcZerc20SchemeFacilitator.js";

/**
 * Registers the svc-zerc20 mechanism on an official `x402Facilitator` for the daemon's own network, and only
 * when the daemon accepts payments: `getSupported()` then lists exactly the svc-zerc20 kind our `GET /supported`
 * lists. Returns the facilitator for chaining, like `registerExactEvmScheme`.
 *
 * @example
 * const daemon = await startDaemon({ configPath: "facilitator.toml", env: process.env });
 * const facilitator = registerSvcZerc20Facilitator(new x402Facilitator(), daemon.settlement);
 * registerExactEvmScheme(facilitator, { signer, networks: daemon.settlement.network });
 */
export function registerSvcZerc20Facilitator(facilitator: x402Facilitator, settlement: InProcessSettlement): x402Facilitator {
  if (!settlement.acceptsPayments) return facilitator;
  return facilitator.register(settlement.network, createSvcZerc20SchemeFacilitator({ settlement }));
}
