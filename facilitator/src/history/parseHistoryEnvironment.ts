/**
 * Reads the history and proof variables. Rules, several of them decisions where the spec is silent:
 * - An empty variable counts as unset, as for the other secrets.
 * - The six persistence and participant variables are all-or-nothing: with any missing, history is off and
 *   the rest are not validated (the daemon logs which names are missing, never values).
 * - The four proof variables are one group: some but not all of them fails startup, whether or not history
 *   is on. With history off, a complete proof group is ignored (and logged).
 * - `HISTORY_IDENTITY_SECRET` is at least {@link MIN_IDENTITY_SECRET_LENGTH} characters (an HS256 key).
 * - Tenant, actor and login domain are 1 to 128 visible ASCII characters: they are lines of the signed login
 *   message, so a newline in one could forge another line.
 * - Optional: `HISTORY_LOGIN_DOMAIN` (default {@link DEFAULT_LOGIN_DOMAIN}), `HISTORY_PROVIDER_SETTLEMENT_EVIDENCE`
 *   (`1`/`true` or `0`/`false`, default off), `HISTORY_PROOF_TTL_SECONDS` (default
 *   {@link DEFAULT_PROOF_TTL_SECONDS}, between {@link MIN_PROOF_TTL_SECONDS} and {@link MAX_PROOF_TTL_SECONDS}),
 *   `HISTORY_ISSUER_ID` and `HISTORY_ISSUER_KEY_ID` (defaults come from the manifest, see `loadProofIssuer`).
 */
import { KeyIdSchema, VisibleIdSchema } from "@svc/scheme";
import { getAddress, isAddress, type Address } from "viem";

import type { Environment } from "../config/parseSecrets.js";
import { IncompleteProofConfigurationError, InvalidHistoryVariableError } from "./errors.js";
import type { ParticipantBinding } from "./participantBinding.js";

/** The six variables that switch history on, all together or not at all. */
export const HISTORY_VARIABLES = [
  "PAYMENT_HISTORY_PATH",
  "HISTORY_IDENTITY_SECRET",
  "HISTORY_PAYER_TENANT",
  "HISTORY_PAYER_ACTOR",
  "HISTORY_PROVIDER_TENANT",
  "HISTORY_PROVIDER_ACTOR",
] as const;

/** The four variables of the proof group, all required together. */
export const PROOF_VARIABLES = [
  "HISTORY_ISSUER_PRIVATE_KEY_PATH",
  "HISTORY_ISSUER_MANIFEST_PATH",
  "HISTORY_ISSUER_TRUST_ANCHOR_PATH",
  "HISTORY_ARTIFACT_PATH",
] as const;

/** Shortest accepted identity secret: 32 characters, the HS256 key size. */
export const MIN_IDENTITY_SECRET_LENGTH = 32;

/** The domain named in login messages when `HISTORY_LOGIN_DOMAIN` is unset. */
export const DEFAULT_LOGIN_DOMAIN = "svc-zerc20-facilitator";

/** Proof lifetime when `HISTORY_PROOF_TTL_SECONDS` is unset: 30 days. */
export const DEFAULT_PROOF_TTL_SECONDS = 30 * 86_400;

/** Shortest proof lifetime accepted: one minute. */
export const MIN_PROOF_TTL_SECONDS = 60;

/** Longest proof lifetime accepted: five years of 365 days. */
export const MAX_PROOF_TTL_SECONDS = 5 * 365 * 86_400;

/** History settings, validated. */
export type HistorySettings = {
  /** `PAYMENT_HISTORY_PATH`. */
  path: string;
  /** `HISTORY_IDENTITY_SECRET`; never logged. */
  identitySecret: string;
  bindings: { payer: ParticipantBinding; provider: ParticipantBinding };
  /** `HISTORY_PAYER_ADDRESS` / `HISTORY_PROVIDER_ADDRESS`: a role without one cannot log in with a wallet. */
  wallets: { payer: Address | undefined; provider: Address | undefined };
  /** `HISTORY_LOGIN_DOMAIN`. */
  loginDomain: string;
  /** `HISTORY_PROVIDER_SETTLEMENT_EVIDENCE`. */
  providerSettlementEvidence: boolean;
};

/** Proof settings, validated as far as the environment goes (the files are read by `loadProofIssuer`). */
export type ProofSettings = {
  privateKeyPath: string;
  manifestPath: string;
  trustAnchorPath: string;
  artifactPath: string;
  issuerId: string | undefined;
  keyId: string | undefined;
  ttlSeconds: number;
};

/** History on (with proofs or not), or off with the names of the missing variables. */
export type HistoryEnvironment =
  | { enabled: false; missing: readonly string[]; proofs: ProofSettings | undefined }
  | { enabled: true; history: HistorySettings; proofs: ProofSettings | undefined };

/** Reads the history and proof variables from `env`; throws named errors that name variables, never values. */
export function parseHistoryEnvironment(env: Environment): HistoryEnvironment {
  const proofs = proofSettings(env);
  const missing = HISTORY_VARIABLES.filter((variable) => read(env, variable) === undefined);
  if (missing.length > 0) return { enabled: false, missing, proofs };
  const value = (variable: (typeof HISTORY_VARIABLES)[number]) => read(env, variable) ?? "";
  const identitySecret = value("HISTORY_IDENTITY_SECRET");
  if (identitySecret.length < MIN_IDENTITY_SECRET_LENGTH) {
    throw new InvalidHistoryVariableError({ variable: "HISTORY_IDENTITY_SECRET", reason: `must be at least ${MIN_IDENTITY_SECRET_LENGTH} characters long` });
  }
  return {
    enabled: true,
    proofs,
    history: {
      path: value("PAYMENT_HISTORY_PATH"),
      identitySecret,
      bindings: {
        payer: { tenantId: visibleId(env, "HISTORY_PAYER_TENANT"), actorId: visibleId(env, "HISTORY_PAYER_ACTOR") },
        provider: { tenantId: visibleId(env, "HISTORY_PROVIDER_TENANT"), actorId: visibleId(env, "HISTORY_PROVIDER_ACTOR") },
      },
      wallets: { payer: wallet(env, "HISTORY_PAYER_ADDRESS"), provider: wallet(env, "HISTORY_PROVIDER_ADDRESS") },
      loginDomain: read(env, "HISTORY_LOGIN_DOMAIN") === undefined ? DEFAULT_LOGIN_DOMAIN : visibleId(env, "HISTORY_LOGIN_DOMAIN"),
      providerSettlementEvidence: flag(env, "HISTORY_PROVIDER_SETTLEMENT_EVIDENCE"),
    },
  };
}

/** The values of the history secrets present in `env`, for the logger's redaction list. */
export function historySecretValues(env: Environment): string[] {
  const secret = read(env, "HISTORY_IDENTITY_SECRET");
  return secret === undefined ? [] : [secret];
}

function proofSettings(env: Environment): ProofSettings | undefined {
  const missing = PROOF_VARIABLES.filter((variable) => read(env, variable) === undefined);
  if (missing.length === PROOF_VARIABLES.length) return undefined;
  if (missing.length > 0) throw new IncompleteProofConfigurationError({ missing });
  const path = (variable: (typeof PROOF_VARIABLES)[number]) => read(env, variable) ?? "";
  const keyId = read(env, "HISTORY_ISSUER_KEY_ID");
  if (keyId !== undefined && !KeyIdSchema.safeParse(keyId).success) {
    throw new InvalidHistoryVariableError({
      variable: "HISTORY_ISSUER_KEY_ID",
      reason: "expected a key id: a letter or digit, then up to 63 of [A-Za-z0-9._:-]",
    });
  }
  return {
    privateKeyPath: path("HISTORY_ISSUER_PRIVATE_KEY_PATH"),
    manifestPath: path("HISTORY_ISSUER_MANIFEST_PATH"),
    trustAnchorPath: path("HISTORY_ISSUER_TRUST_ANCHOR_PATH"),
    artifactPath: path("HISTORY_ARTIFACT_PATH"),
    issuerId: read(env, "HISTORY_ISSUER_ID") === undefined ? undefined : visibleId(env, "HISTORY_ISSUER_ID"),
    keyId,
    ttlSeconds: ttl(env),
  };
}

function read(env: Environment, variable: string): string | undefined {
  const value = env[variable];
  return value === undefined || value === "" ? undefined : value;
}

function visibleId(env: Environment, variable: string): string {
  const value = read(env, variable) ?? "";
  if (!VisibleIdSchema.safeParse(value).success) {
    throw new InvalidHistoryVariableError({ variable, reason: "expected 1 to 128 visible ASCII characters without spaces" });
  }
  return value;
}

function wallet(env: Environment, variable: string): Address | undefined {
  const value = read(env, variable);
  if (value === undefined) return undefined;
  if (!isAddress(value, { strict: false })) throw new InvalidHistoryVariableError({ variable, reason: "expected an EVM address (0x and 40 hex digits)" });
  return getAddress(value);
}

function flag(env: Environment, variable: string): boolean {
  const value = read(env, variable);
  if (value === undefined || value === "0" || value === "false") return false;
  if (value === "1" || value === "true") return true;
  throw new InvalidHistoryVariableError({ variable, reason: "expected 1, true, 0 or false" });
}

function ttl(env: Environment): number {
  const value = read(env, "HISTORY_PROOF_TTL_SECONDS");
  if (value === undefined) return DEFAULT_PROOF_TTL_SECONDS;
  const seconds = Number(value);
  if (!/^[0-9]+$/.test(value) || seconds < MIN_PROOF_TTL_SECONDS || seconds > MAX_PROOF_TTL_SECONDS) {
    throw new InvalidHistoryVariableError({
      variable: "HISTORY_PROOF_TTL_SECONDS",
      reason: `expected whole seconds between ${MIN_PROOF_TTL_SECONDS} and ${MAX_PROOF_TTL_SECONDS}`,
    });
  }
  return seconds;
}
