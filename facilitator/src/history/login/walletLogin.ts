import { randomBytes } from "node:crypto";
import { buildHistoryLoginMessage, type HistorySubject, parseHistoryLoginMessage } from "@svc/scheme";
import { type Address, type Hex, verifyMessage } from "viem";

import { type HistoryOutcome, refuse } from "../historyOutcome.js";
import type { IdentityTokens } from "./identityToken.js";
import { LoginChallengeStore } from "./loginChallengeStore.js";
import type { ParticipantBindings } from "../participantBinding.js";

/** The spec's challenge lifetime. */
export const LOGIN_CHALLENGE_TTL_SECONDS = 300;

/** What wallet login needs. */
export type CreateWalletLoginParameters = {
  domain: string;
  bindings: ParticipantBindings;
  /** The wallet allowed to log in as each role; a role without one is refused (403). */
  wallets: Readonly<Record<HistorySubject, Address | undefined>>;
  tokens: IdentityTokens;
  /** Unix milliseconds. */
  now: () => number;
  /** Pending-challenge bound, for tests; the spec's 10000 by default. */
  capacity?: number;
};

/** The two steps of wallet login. */
export type WalletLogin = {
  /** Issues a single-use challenge message for `subject`. */
  challenge: (subject: HistorySubject) => HistoryOutcome<{ message: string; nonce: Hex; expiresAt: number }>;
  /** Checks a signed challenge and, only if the signature verifies, consumes it and issues an identity token. */
  verify: (message: string, signature: Hex) => Promise<HistoryOutcome<{ token: string; expiresAt: number }>>;
};

/**
 * Wallet login per the spec: a challenge names domain, tenant, actor, role, a random nonce and an expiry
 * 300 s out, for the wallet configured for that role. Verification finds the challenge by the nonce in the
 * message, requires the message to be exactly the one issued (so editing the subject or any other line
 * fails), refuses it after expiry, checks the EIP-191 signature against the configured wallet, and consumes
 * the nonce only after the signature verifies: a wrong signature does not burn a legitimate user's challenge,
 * and a replay finds it gone.
 */
export function createWalletLogin(parameters: CreateWalletLoginParameters): WalletLogin {
  const store = new LoginChallengeStore({ capacity: parameters.capacity });
  const nowSeconds = () => Math.floor(parameters.now() / 1000);

  return {
    challenge: (subject) => {
      const wallet = parameters.wallets[subject];
      if (wallet === undefined) return refuse("forbidden", `no wallet is bound to subject ${subject}`);
      const binding = parameters.bindings[subject];
      const nonce: Hex = `0x${randomBytes(32).toString("hex")}`;
      const expiresAt = nowSeconds() + LOGIN_CHALLENGE_TTL_SECONDS;
      const message = buildHistoryLoginMessage({ domain: parameters.domain, ...binding, subject, nonce, expiresAt });
      if (!store.add(nonce, { message, subject, binding, wallet, expiresAt }, nowSeconds())) {
        return refuse("capacity", "too many pending history login challenges");
      }
      return { ok: true, value: { message, nonce, expiresAt } };
    },
    verify: async (message, signature) => {
      const fields = parseHistoryLoginMessage(message);
      if (fields === undefined) return refuse("malformed", "message is not a history login message");
      const pending = store.get(fields.nonce);
      if (pending === undefined) return refuse("unauthorized", "unknown or already used login challenge");
      if (pending.message !== message) return refuse("unauthorized", "message differs from the issued challenge");
      if (nowSeconds() >= pending.expiresAt) {
        store.consume(fields.nonce);
        return refuse("unauthorized", "login challenge expired");
      }
      let valid = false;
      try {
        valid = await verifyMessage({ address: pending.wallet, message, signature });
      } catch {
        valid = false;
      }
      if (!valid) return refuse("unauthorized", `signature is not from the wallet bound to subject ${pending.subject}`);
      if (!store.consume(fields.nonce)) return refuse("unauthorized", "unknown or already used login challenge");
      const issued = await parameters.tokens.issue({ subject: pending.subject, ...pending.binding, wallet: pending.wallet });
      return { ok: true, value: issued };
    },
  };
}
