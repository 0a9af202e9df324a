/**
 * The facilitator as a library, for operators who run it inside their own process: start the daemon, then
 * register svc-zerc20 on the official `x402Facilitator` beside `exact`. The CLI (`svc-facilitator`) is the
 * other way in.
 *
 * @example
 * import { registerSvcZerc20Facilitator, startDaemon } from "@svc/facilitator";
 * import { x402Facilitator } from "@x402/core/facilitator";
 *
 * const daemon = await startDaemon({ configPath: "facilitator.toml", env: process.env });
 * const facilitator = registerSvcZerc20Facilitator(new x402Facilitator(), daemon.settlement);
 */
export type { InProcessSettlement } from "./daemon/createInProcessSettlement.js";
export { InProcessSettlementFailedError, InProcessSettlementStoppedError } from "./daemon/errors.js";
export { startDaemon, type RunningDaemon, type StartDaemonOptions } from "./daemon/startDaemon.js";
export {
  createSvcZerc20SchemeFacilitator,
  SVC_ZERC20_CAIP_FAMILY,
  type CreateSvcZerc20SchemeFacilitatorParameters,
} from "./x402Mechanism/createSvcZerc20SchemeFacilitator.js";
export { registerSvcZerc20Facilitator } from "./x402Mechanism/registerSvcZerc20Facilitator.js";
