/**
 * The wire shapes of wallet login (`POST /history/auth/challenge`, `POST /history/auth/verify`). The spec
 * leaves the field names open; these are fixed here so every client can rely on them.
 */
import { z } from "zod";

import { Bytes32Schema } from "../wire/bytes32.js";
import { SignatureHexSchema } from "../wire/signatureHex.js";
import { HistorySubjectSchema } from "./artifactFields.js";

/** Longest login message accepted for verification; the real one is a few hundred bytes. */
export const MAX_HISTORY_LOGIN_MESSAGE_LENGTH = 2048;

/** `POST /history/auth/challenge` request: which participant role to log in as. */
export const HistoryChallengeRequestSchema = z.object({ subject: HistorySubjectSchema });

/** Request body of `POST /history/auth/challenge`. */
export type HistoryChallengeRequest = z.infer<typeof HistoryChallengeRequestSchema>;

/** `POST /history/auth/challenge` answer: the exact message to sign, its nonce and expiry (unix seconds). */
export const HistoryChallengeResponseSchema = z.object({
  message: z.string().min(1).max(MAX_HISTORY_LOGIN_MESSAGE_LENGTH),
  nonce: Bytes32Schema,
  expiresAt: z.int().positive(),
});

/** Answer of `POST /history/auth/challenge`. */
export type HistoryChallengeResponse = z.infer<typeof HistoryChallengeResponseSchema>;

/** `POST /history/auth/verify` request: the message exactly as issued and its EIP-191 signature. */
export const HistoryVerifyRequestSchema = z.object({
  message: z.string().min(1).max(MAX_HISTORY_LOGIN_MESSAGE_LENGTH),
  signature: SignatureHexSchema,
});

/** Request body of `POST /history/auth/verify`. */
export type HistoryVerifyRequest = z.infer<typeof HistoryVerifyRequestSchema>;

/** `POST /history/auth/verify` answer: the bearer identity token and its expiry (unix seconds). */
export const HistoryTokenResponseSchema = z.object({ token: z.string().min(1), expiresAt: z.int().positive() });

/** Answer of `POST /history/auth/verify`. */
export type HistoryTokenResponse = z.infer<typeof HistoryTokenResponseSchema>;
