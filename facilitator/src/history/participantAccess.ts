/**
 * The two separate checks every history read and proof operation passes, both fail-closed:
 * 1. Authorization, a tenant grant: the identity's tenant is the tenant granted to its role by configuration
 *    (`HISTORY_PAYER_TENANT` / `HISTORY_PROVIDER_TENANT`). It decides whether the caller may use history in
 *    that role at all.
 * 2. Participant binding: the record binds the identity's role to exactly the identity's tenant and actor. It
 *    decides which records the caller sees. A record without a binding for the role matches nobody.
 * Passing one never implies the other; an unrelated actor of the right tenant passes 1 and fails 2.
 */
import type { PaymentHistoryEntry } from "./record/paymentHistoryBook.js";
import type { HistoryIdentity, ParticipantBindings } from "./participantBinding.js";

/** Whether the identity's tenant holds the grant for its role. */
export function hasTenantGrant(identity: HistoryIdentity, grants: ParticipantBindings): boolean {
  return grants[identity.subject].tenantId === identity.tenantId;
}

/** Whether the record binds the identity's role to this tenant and actor. */
export function isBoundParticipant(identity: HistoryIdentity, entry: PaymentHistoryEntry): boolean {
  const binding = entry.bindings[identity.subject];
  return binding !== undefined && binding.tenantId === identity.tenantId && binding.actorId === identity.actorId;
}
