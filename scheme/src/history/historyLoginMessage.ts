import { z } from "zod";

import { type Bytes32, Bytes32Schema } from "../wire/bytes32.js";
import { type HistorySubject, HistorySubjectSchema, VisibleIdSchema } from "./artifactFields.js";
import { ArtifactTimeSchema, formatArtifactTime, parseArtifactTime } from "./artifactTime.js";

/** The first line of every history login message: what the wallet is signing, before any detail. */
export const HISTORY_LOGIN_TITLE = "svc-zerc20 payment history login";

/** The purpose line: a wallet owner reading the message learns that it moves no money. */
export const HISTORY_LOGIN_PURPOSE = "Purpose: sign in to read payment history and manage payment proofs; this signature authorizes no payment";

/** What a login message binds: where, who (tenant, actor, role), a single-use nonce and an expiry. */
export type HistoryLoginMessageFields = {
  /** The facilitator's history login domain. */
  domain: string;
  tenantId: string;
  actorId: string;
  subject: HistorySubject;
  /** 32 random bytes issued by the facilitator, single-use. */
  nonce: Bytes32;
  /** Unix seconds after which the challenge is refused. */
  expiresAt: number;
};

const LINE_NAMES = ["Domain", "Tenant ID", "Actor ID", "Subject", "Nonce", "Expires At"] as const;

const FieldsSchema = z.object({
  domain: VisibleIdSchema,
  tenantId: VisibleIdSchema,
  actorId: VisibleIdSchema,
  subject: HistorySubjectSchema,
  nonce: Bytes32Schema,
  expiresAt: ArtifactTimeSchema,
});

/**
 * Builds the exact newline-delimited message a participant wallet signs with EIP-191 personal-sign. The
 * facilitator issues it and later compares the signed text byte for byte, so the layout is fixed:
 *
 * ```text
 * svc-zerc20 payment history login
 * Purpose: sign in to read payment history and manage payment proofs; this signature authorizes no payment
 * Domain: <domain>
 * Tenant ID: <tenantId>
 * Actor ID: <actorId>
 * Subject: <payer|provider>
 * Nonce: <0x + 64 hex>
 * Expires At: <RFC 3339 UTC>
 * ```
 *
 * @example
 * const message = buildHistoryLoginMessage({ domain: "pay.example", tenantId: "t1", actorId: "a1", subject: "payer", nonce, expiresAt });
 */
export function buildHistoryLoginMessage(fields: HistoryLoginMessageFields): string {
  const values = [fields.domain, fields.tenantId, fields.actorId, fields.subject, fields.nonce, formatArtifactTime(fields.expiresAt)];
  return [HISTORY_LOGIN_TITLE, HISTORY_LOGIN_PURPOSE, ...LINE_NAMES.map((name, index) => `${name}: ${values[index]}`)].join("\n");
}

/**
 * Reads a login message back into its fields, or `undefined` when it is not exactly a message
 * {@link buildHistoryLoginMessage} would write. A wallet checks the fields before signing; the facilitator
 * uses it to find the nonce.
 */
export function parseHistoryLoginMessage(message: string): HistoryLoginMessageFields | undefined {
  const lines = message.split("\n");
  if (lines.length !== 2 + LINE_NAMES.length || lines[0] !== HISTORY_LOGIN_TITLE || lines[1] !== HISTORY_LOGIN_PURPOSE) return undefined;
  const values: string[] = [];
  for (const [index, name] of LINE_NAMES.entries()) {
    const line = lines[index + 2] ?? "";
    if (!line.startsWith(`${name}: `)) return undefined;
    values.push(line.slice(name.length + 2));
  }
  const [domain, tenantId, actorId, subject, nonce, expiresAt] = values;
  const parsed = FieldsSchema.safeParse({ domain, tenantId, actorId, subject, nonce, expiresAt });
  if (!parsed.success) return undefined;
  const fields = { ...parsed.data, expiresAt: parseArtifactTime(parsed.data.expiresAt) };
  return buildHistoryLoginMessage(fields) === message ? fields : undefined;
}
