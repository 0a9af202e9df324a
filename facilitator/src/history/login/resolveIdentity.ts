/**
 * Where a history request's identity comes from. The default, `wallet-token`, reads only
 * `Authorization: Bearer <identity token>`; `x-history-*` headers are ignored entirely, so a client cannot
 * claim an identity by sending them. `legacy-headers` is a code-level option, off by default, for a trusted
 * network only: it believes `x-history-tenant` and `x-history-actor` (and `x-history-subject`, or else the
 * role whose configured binding they match) without any proof of who sent them.
 */
import { HistorySubjectSchema, VisibleIdSchema } from "@svc/scheme";

import { type HistoryOutcome, refuse } from "../historyOutcome.js";
import type { IdentityTokens } from "./identityToken.js";
import type { HistoryIdentity, ParticipantBindings } from "../participantBinding.js";

/** `wallet-token` (default) or `legacy-headers` (trusted networks only). */
export type IdentitySource = "wallet-token" | "legacy-headers";

/** The parts of a request identity resolution may read. */
export type IdentityRequest = {
  /** The `Authorization` header. */
  authorization: string | undefined;
  /** Any other header by lowercase name; read only by the legacy resolver. */
  header: (name: string) => string | undefined;
};

/** Resolves the identity of a request, or refuses it as unauthorized. */
export type ResolveIdentity = (request: IdentityRequest) => Promise<HistoryOutcome<HistoryIdentity>>;

/** Builds the resolver for `source`. */
export function createIdentityResolver({
  source,
  tokens,
  bindings,
}: {
  source: IdentitySource;
  tokens: IdentityTokens;
  bindings: ParticipantBindings;
}): ResolveIdentity {
  if (source === "legacy-headers") return async (request) => fromLegacyHeaders(request, bindings);
  return async ({ authorization }) => {
    const token = /^Bearer +([^\s]+)$/i.exec(authorization ?? "")?.[1];
    if (token === undefined) return refuse("unauthorized", "missing bearer identity token");
    const identity = await tokens.verify(token);
    return identity === undefined ? refuse("unauthorized", "invalid or expired identity token") : { ok: true, value: identity };
  };
}

function fromLegacyHeaders(request: IdentityRequest, bindings: ParticipantBindings): HistoryOutcome<HistoryIdentity> {
  const tenant = VisibleIdSchema.safeParse(request.header("x-history-tenant"));
  const actor = VisibleIdSchema.safeParse(request.header("x-history-actor"));
  if (!tenant.success || !actor.success) return refuse("unauthorized", "missing x-history-tenant or x-history-actor header");
  const named = HistorySubjectSchema.safeParse(request.header("x-history-subject"));
  const matching = (["payer", "provider"] as const).find((subject) => bindings[subject].tenantId === tenant.data && bindings[subject].actorId === actor.data);
  const subject = named.success ? named.data : matching;
  if (subject === undefined) return refuse("unauthorized", "x-history headers name no configured participant");
  return { ok: true, value: { subject, tenantId: tenant.data, actorId: actor.data } };
}
