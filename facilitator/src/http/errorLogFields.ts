import { BaseError } from "../errors/base.js";

/** Longest error message written to the log; a foreign error can quote a whole request or RPC payload. */
const MAX_MESSAGE_LENGTH = 500;

/** A URL (or the start of one) running up to the end of the text. */
const TRAILING_URL = /[a-z][a-z0-9+.-]*:\/\/\S*$/i;

/**
 * The log fields describing an unexpected error: its name and a bounded message, never request data. Our
 * own errors build their message from text we wrote; a foreign message (viem quotes the RPC URL) still passes
 * the logger's redaction of secrets, credential-bearing URLs and signature-grade hex, and is cut short so it
 * cannot flood a line. A URL the cut would split is dropped whole: half a key is no longer recognisable as one.
 */
export function errorLogFields(error: unknown): { error: string; message: string } {
  if (error instanceof BaseError) return { error: error.name, message: error.message };
  if (error instanceof Error) {
    const { message } = error;
    const bounded = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH).replace(TRAILING_URL, "")}…` : message;
    return { error: error.name, message: bounded };
  }
  return { error: typeof error, message: "non-error value thrown" };
}
