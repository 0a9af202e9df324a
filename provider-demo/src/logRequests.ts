import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  PAYMENT_REQUIRED_HEADER,
  PAYMENT_RESPONSE_HEADER,
  PAYMENT_SIGNATURE_HEADER,
  selectSchemeRequirements,
} from "@svc/scheme";
import type { Request, RequestHandler, Response } from "express";

/** One request's payment outcome as logged; never a payload, a signature or a payer address. */
export type RequestLogLine = {
  ts: string;
  /** `info` for a served or refused payment, `warn` when the facilitator failed (502), `error` for other 5xx. */
  level: "info" | "warn" | "error";
  event: "request";
  method: string;
  path: string;
  status: number;
  /** The nonce of the offer the request paid for or, on a 402, of the offer it was given. */
  challenge_nonce?: string;
  /** The settle phase of a served payment (`accepted`). */
  phase?: string;
  /** Why the payment was not served: a reason code, the 402's error, or the kind of server failure. */
  error?: string;
};

/**
 * Express middleware that writes one JSON line per finished request (`ts`, `level`, `event: "request"`, like
 * every provider and facilitator line) with its payment outcome, read from the
 * x402 headers the payment middleware set, so the logging needs no hook into it and sees what the client saw.
 */
export function logRequests(write: (line: string) => void): RequestHandler {
  return (request, response, next) => {
    response.on("finish", () => write(JSON.stringify(describeOutcome(request, response))));
    next();
  };
}

function describeOutcome(request: Request, response: Response): RequestLogLine {
  const status = response.statusCode;
  const line: RequestLogLine = {
    ts: new Date().toISOString(),
    level: status === 502 ? "warn" : status >= 500 ? "error" : "info",
    event: "request",
    method: request.method,
    path: request.path,
    status: response.statusCode,
  };
  const required = readHeader(response.getHeader(PAYMENT_REQUIRED_HEADER), decodePaymentRequiredHeader);
  const settled = readHeader(response.getHeader(PAYMENT_RESPONSE_HEADER), decodePaymentResponseHeader);
  const paid = readHeader(request.header(PAYMENT_SIGNATURE_HEADER), decodePaymentSignatureHeader);

  const challengeNonce = paid?.accepted.extra.challengeNonce ?? (required && selectSchemeRequirements(required)[0]?.extra.challengeNonce);
  if (challengeNonce) line.challenge_nonce = challengeNonce;

  if (settled?.success) line.phase = settled.extra?.phase ?? "settled";
  else if (settled) line.error = settled.errorReason ?? "settle_failed";
  else if (required) line.error = required.error ?? "payment_required";
  else if (response.statusCode === 502) line.error = "facilitator_error";
  else if (response.statusCode >= 500) line.error = "internal_error";
  return line;
}

/** Decodes an x402 header, or `undefined` when it is absent or unreadable (logging never throws). */
function readHeader<T>(value: unknown, decode: (value: string) => T): T | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  try {
    return decode(value);
  } catch {
    return undefined;
  }
}
