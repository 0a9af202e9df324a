/**
 * Everything the HTTP layer needs from the rest of the daemon. Routes parse and map to HTTP; the
 * settlement core behind these functions knows nothing of Koa.
 */
import type { ChallengeOffer, ClassifiedFacilitatorBody, SettleResponse, SupportedResponse, VerifyResponse } from "@svc/scheme";
import type { Hex } from "viem";
import type { FacilitatorConfig } from "../config/facilitatorConfigSchema.js";
import type { HistoryService } from "../history/createHistoryService.js";
import type { Logger } from "../log/createLogger.js";
import type { FacilitatorMetrics } from "../metrics/createFacilitatorMetrics.js";
import type { AdminSettlement, SettlementState } from "../operator/adminSettlement.js";
import type { AdminStatus } from "../operator/adminStatus.js";
import type { WithdrawalWitness } from "../operator/withdrawalWitness.js";
import type { ReadinessReport } from "../readiness/readinessReport.js";
import type { RateLimitPort } from "../storage/storagePorts.js";

/** The daemon's functions the routes call. */
export type AppDependencies = {
  config: Pick<FacilitatorConfig, "profile" | "listen" | "daemon" | "providers" | "finalize">;
  /** `SVC_ADMIN_TOKEN`; `undefined` locks `/admin/*` (every request gets the same 401). */
  adminToken: string | undefined;
  logger: Logger;
  /** Body of `GET /supported`. */
  supported: () => SupportedResponse;
  /** Read-only liveness facts for `GET /healthz`. */
  health: () => Record<string, unknown>;
  /** Rate-limit counts shared by several instances (`[storage]`); each process counts alone when omitted. */
  rateLimits?: RateLimitPort | undefined;
  /** The cached readiness probe behind `GET /readyz` and the `/challenge` gate; never rejects. */
  readiness: () => Promise<ReadinessReport>;
  /**
   * Issues one offer for a list price. Throws `ProfileDisabledError` (403), `ChallengeCapacityError` (503)
   * or `QuoteOutOfRangeError` (400).
   */
  issueChallenge: (listPrice: bigint) => Promise<ChallengeOffer>;
  /** `/verify` on a classified body: never mutates, never throws for a protocol failure. */
  verify: (body: ClassifiedFacilitatorBody) => Promise<VerifyResponse>;
  /** `/settle` on a classified body (x402 or legacy shape): a protocol failure is `success: false`. */
  settle: (body: ClassifiedFacilitatorBody) => Promise<SettleResponse>;
  admin: {
    challenges: () => { open: number; retainedExpired: number; maxOpen: number };
    settlements: (state: SettlementState | undefined) => AdminSettlement[];
    /** The operator summary behind `GET /admin/status`. */
    status: () => Promise<AdminStatus>;
    /** A settled payment's withdrawal witness (it holds the burn secret), or `undefined` for an unknown payment. */
    withdrawalWitness: (challengeNonce: Hex) => Promise<WithdrawalWitness | undefined>;
  };
  /** The metrics registry and hooks; without it `/metrics` is not served and nothing is counted. */
  metrics?: FacilitatorMetrics | undefined;
  /** Payment history, present only with the complete history environment; it registers `/history/*`. */
  history?: HistoryService | undefined;
};
