import type { HistoryPaymentView } from "@svc/scheme";

import { type HistoryOutcome, refuse } from "./historyOutcome.js";
import type { PaymentHistory } from "./record/openPaymentHistory.js";
import { hasTenantGrant, isBoundParticipant } from "./participantAccess.js";
import type { HistoryIdentity, ParticipantBindings } from "./participantBinding.js";
import { projectPayment, type ProjectionOptions } from "./record/projectPayment.js";
import type { ProofService } from "./proofs/createProofService.js";
import type { IdentityRequest, ResolveIdentity } from "./login/resolveIdentity.js";
import type { WalletLogin } from "./login/walletLogin.js";

/** Everything the `/history/*` routes call; Koa-free, answering refusals as data. */
export type HistoryService = {
  login: WalletLogin;
  /** Authenticates a request and checks its tenant grant: 401 without a valid identity, 403 without a grant. */
  identify: (request: IdentityRequest) => Promise<HistoryOutcome<HistoryIdentity>>;
  /** The payments bound to the identity, in its projection, including those other instances recorded. */
  listPayments: (identity: HistoryIdentity) => Promise<HistoryPaymentView[]>;
  /** One payment bound to the identity; any other id is "not found", whether or not it exists. */
  getPayment: (identity: HistoryIdentity, paymentId: string) => Promise<HistoryOutcome<HistoryPaymentView>>;
  /** Present only when the whole proof configuration is: the proof routes are registered as one group. */
  proofs: ProofService | undefined;
};

/** What the history service is built from. */
export type CreateHistoryServiceParameters = {
  history: PaymentHistory;
  grants: ParticipantBindings;
  login: WalletLogin;
  resolveIdentity: ResolveIdentity;
  projection: ProjectionOptions;
  proofs: ProofService | undefined;
};

/**
 * Composes history reads over the authorization checks: every call first resolves the identity and checks
 * its tenant grant, then shows only records that bind the identity's role to its tenant and actor.
 */
export function createHistoryService(parameters: CreateHistoryServiceParameters): HistoryService {
  const { history, grants, projection } = parameters;
  return {
    login: parameters.login,
    identify: async (request) => {
      const identity = await parameters.resolveIdentity(request);
      if (!identity.ok) return identity;
      if (!hasTenantGrant(identity.value, grants)) return refuse("forbidden", `tenant is not granted history access as ${identity.value.subject}`);
      return identity;
    },
    listPayments: async (identity) => {
      await history.catchUp();
      return history.book
        .entries()
        .filter((entry) => isBoundParticipant(identity, entry))
        .map((entry) => projectPayment(entry, identity.subject, projection));
    },
    getPayment: async (identity, paymentId) => {
      await history.catchUp();
      const entry = history.book.entry(paymentId);
      if (entry === undefined || !isBoundParticipant(identity, entry)) return refuse("not_found", "no payment with this id is visible to this participant");
      return { ok: true, value: projectPayment(entry, identity.subject, projection) };
    },
    proofs: parameters.proofs,
  };
}
