import type { z } from "zod";

import type { Hex } from "viem";
import { requestFacilitatorJson } from "../http/requestFacilitatorJson.js";
import { describeIssues } from "../wire/describeIssues.js";
import type { HistorySubject } from "./artifactFields.js";
import { HistoryRequestError } from "./errors.js";
import { parseHistoryLoginMessage } from "./historyLoginMessage.js";
import {
  type HistoryChallengeResponse,
  HistoryChallengeResponseSchema,
  type HistoryTokenResponse,
  HistoryTokenResponseSchema,
  type HistoryVerifyRequest,
} from "./historyLoginWire.js";
import { type HistoryPaymentView, HistoryPaymentViewSchema, HistoryPaymentsResponseSchema } from "./historyPaymentView.js";
import {
  type ProofIssueResponse,
  ProofIssueResponseSchema,
  type ProofRevokeResponse,
  ProofRevokeResponseSchema,
  type ProofVerifyResponse,
  ProofVerifyResponseSchema,
} from "./historyProofWire.js";

/** Default bound on one history request. */
export const DEFAULT_HISTORY_TIMEOUT_MS = 10_000;

/** Where the facilitator is and how to reach it. */
export type CreateHistoryClientParameters = {
  /** The facilitator's base URL, e.g. `http://127.0.0.1:4032`. */
  facilitatorUrl: string;
  /** Injected for tests and custom transports (an allowlisting fetch, a proxy); defaults to the global `fetch`. */
  fetch?: typeof fetch | undefined;
  /** Per-request bound in milliseconds; default {@link DEFAULT_HISTORY_TIMEOUT_MS}. */
  timeoutMs?: number | undefined;
};

/** How a wallet logs in: its role, a personal-sign function, and what the message must say to be signed. */
export type HistoryLoginParameters = {
  subject: HistorySubject;
  /** EIP-191 personal-sign of the exact message, e.g. `(message) => account.signMessage({ message })`. */
  signMessage: (message: string) => Promise<Hex>;
  /** When set, the message must name this domain or the wallet does not sign. */
  expectedDomain?: string | undefined;
  /** Clock in unix milliseconds, for tests. */
  now?: (() => number) | undefined;
};

/** The history API of one facilitator, typed end to end. Every method throws `HistoryRequestError`. */
export type HistoryClient = {
  /** `POST /history/auth/challenge`. */
  requestChallenge: (subject: HistorySubject) => Promise<HistoryChallengeResponse>;
  /** `POST /history/auth/verify`. */
  verifySignature: (request: HistoryVerifyRequest) => Promise<HistoryTokenResponse>;
  /** Challenge, check the message, sign it, verify: the whole wallet login, returning the identity token. */
  login: (parameters: HistoryLoginParameters) => Promise<HistoryTokenResponse>;
  /** `GET /history/payments`: the participant's visible payments. */
  listPayments: (token: string) => Promise<HistoryPaymentView[]>;
  /** `GET /history/payments/:paymentId`. */
  getPayment: (token: string, paymentId: string) => Promise<HistoryPaymentView>;
  /** `POST /history/proofs/issue`. */
  issueProof: (token: string, paymentId: string) => Promise<ProofIssueResponse>;
  /** `POST /history/proofs/verify` (online; use `verifyPaymentProof` to check offline). */
  verifyProof: (token: string, proofId: string) => Promise<ProofVerifyResponse>;
  /** `POST /history/proofs/revoke`. */
  revokeProof: (token: string, proofId: string, reason?: string) => Promise<ProofRevokeResponse>;
};

/**
 * Builds a client for the facilitator's `/history/*` API. `login` refuses to sign a message that is not the
 * documented layout, names another role, another nonce or expiry than the answer, an unexpected domain, or
 * has already expired, so a wallet never signs text it did not expect.
 *
 * @example
 * const history = createHistoryClient({ facilitatorUrl: "http://127.0.0.1:4032" });
 * const { token } = await history.login({ subject: "payer", signMessage: (message) => account.signMessage({ message }) });
 * const payments = await history.listPayments(token);
 */
export function createHistoryClient(parameters: CreateHistoryClientParameters): HistoryClient {
  const base = parameters.facilitatorUrl.replace(/\/+$/, "");
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_HISTORY_TIMEOUT_MS;

  const call = async <Schema extends z.ZodType>(
    method: "GET" | "POST",
    path: string,
    schema: Schema,
    options: { token?: string; body?: unknown } = {},
  ): Promise<z.infer<Schema>> => {
    const answer = await requestFacilitatorJson({
      fetch: parameters.fetch ?? globalThis.fetch,
      url: `${base}${path}`,
      init: {
        method,
        headers: {
          accept: "application/json",
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
          ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      },
      timeoutMs,
    });
    if (!answer.ok) throw new HistoryRequestError({ failure: answer.failure, path, cause: answer.cause });
    const parsed = schema.safeParse(answer.json);
    if (!parsed.success) throw new HistoryRequestError({ failure: { kind: "invalid_answer", issues: describeIssues(parsed.error) }, path });
    return parsed.data;
  };

  const requestChallenge = (subject: HistorySubject) => call("POST", "/history/auth/challenge", HistoryChallengeResponseSchema, { body: { subject } });
  const verifySignature = (request: HistoryVerifyRequest) => call("POST", "/history/auth/verify", HistoryTokenResponseSchema, { body: request });

  return {
    requestChallenge,
    verifySignature,
    login: async ({ subject, signMessage, expectedDomain, now = Date.now }) => {
      const challenge = await requestChallenge(subject);
      const problem = loginMessageProblem(challenge, { subject, expectedDomain, nowSeconds: Math.floor(now() / 1000) });
      if (problem !== undefined) {
        throw new HistoryRequestError({ failure: { kind: "unexpected_challenge", issues: problem }, path: "/history/auth/challenge" });
      }
      const signature = await signMessage(challenge.message);
      return verifySignature({ message: challenge.message, signature });
    },
    listPayments: async (token) => (await call("GET", "/history/payments", HistoryPaymentsResponseSchema, { token })).payments,
    getPayment: (token, paymentId) => call("GET", `/history/payments/${encodeURIComponent(paymentId)}`, HistoryPaymentViewSchema, { token }),
    issueProof: (token, paymentId) => call("POST", "/history/proofs/issue", ProofIssueResponseSchema, { token, body: { paymentId } }),
    verifyProof: (token, proofId) => call("POST", "/history/proofs/verify", ProofVerifyResponseSchema, { token, body: { proofId } }),
    revokeProof: (token, proofId, reason) =>
      call("POST", "/history/proofs/revoke", ProofRevokeResponseSchema, {
        token,
        body: reason === undefined ? { proofId } : { proofId, reason },
      }),
  };
}

/** Why a wallet must not sign this challenge, or `undefined` when it matches what was asked for. */
function loginMessageProblem(
  challenge: HistoryChallengeResponse,
  expected: { subject: HistorySubject; expectedDomain: string | undefined; nowSeconds: number },
): string | undefined {
  const fields = parseHistoryLoginMessage(challenge.message);
  if (fields === undefined) return "the message is not a history login message";
  if (fields.subject !== expected.subject) return `the message is for subject ${fields.subject}, not ${expected.subject}`;
  if (fields.nonce.toLowerCase() !== challenge.nonce.toLowerCase() || fields.expiresAt !== challenge.expiresAt) {
    return "the message does not match the nonce and expiry of the answer";
  }
  if (expected.expectedDomain !== undefined && fields.domain !== expected.expectedDomain) return "the message names another domain";
  if (fields.expiresAt <= expected.nowSeconds) return "the challenge has already expired";
  return undefined;
}
