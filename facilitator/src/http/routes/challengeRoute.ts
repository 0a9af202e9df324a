import { ChallengeRequestSchema, describeIssues } from "@svc/scheme";

import { InvalidRequestError } from "../errors.js";
import type { AppDependencies } from "../appDependencies.js";
import type { HttpMiddleware } from "../httpState.js";

/**
 * `POST /challenge`: parses `{ amount }` (a plain decimal string of base units, so `"-1"`, `"1.5"` and `"01"`
 * are refused with 400 naming the rule) and answers the challenge offer. The core's refusals surface through
 * the error middleware: profile off → 403, capacity → 503, unquotable price → 400.
 */
export function challengeRoute(deps: Pick<AppDependencies, "issueChallenge">): HttpMiddleware {
  return async (ctx) => {
    const parsed = ChallengeRequestSchema.safeParse(ctx.request.body);
    // zod's issue messages name the expectation, never the input, so they are safe to send back.
    if (!parsed.success) throw new InvalidRequestError({ reason: describeIssues(parsed.error) });
    ctx.body = await deps.issueChallenge(BigInt(parsed.data.amount));
  };
}
