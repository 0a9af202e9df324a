/** The participant vocabulary of history: roles, bindings, and an authenticated identity. */
import type { HistorySubject } from "@svc/scheme";

/** A participant as a record binds it: a tenant (the authorization scope) and an actor within it. */
export type ParticipantBinding = { tenantId: string; actorId: string };

/** The configured binding of each role, written into every record at intent time. */
export type ParticipantBindings = Readonly<Record<HistorySubject, ParticipantBinding>>;

/** Who is asking: the role they act in and their tenant and actor, as proven by a token (or, legacy, headers). */
export type HistoryIdentity = ParticipantBinding & { subject: HistorySubject };
