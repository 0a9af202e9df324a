import { STATUS_CODES } from "node:http";

import type { PolicyResponse } from "../http/fetchWithPolicy.js";
import type { PayOutcome } from "./payOutcome.js";
import { toResourceResponse } from "./resourceResponse.js";

/** The outcome of an unpaid request answered with a non-2xx status other than 402: a failure, never "no payment required". */
export function httpErrorOutcome(response: PolicyResponse): Extract<PayOutcome, { kind: "http-error" }> {
  const phrase = STATUS_CODES[response.status];
  return {
    kind: "http-error",
    status: response.status,
    message: `${response.url.href} answered HTTP ${response.status}${phrase === undefined ? "" : ` (${phrase})`}; nothing was offered or paid`,
    resource: toResourceResponse(response),
  };
}
