import { describeIssues, ProofVerifyRequestSchema } from "@svc/scheme";

import { HistoryBadRequestError } from "../../../history/errors.js";
import type { HistoryService } from "../../../history/createHistoryService.js";
import type { ProofService } from "../../../history/proofs/createProofService.js";
import type { HttpMiddleware } from "../../httpState.js";
import { valueOrAnswer } from "./answerRefusal.js";
import { identifyHistoryRequest } from "./identifyHistoryRequest.js";

/**
 * `POST /history/proofs/verify` `{ proofId }` (bearer identity token) → `{ proofId, result, reason }`: the
 * online check, the same offline verifier run now over the exported artifacts with the daemon's manifest and
 * trust anchor. 404 for a proof of a payment not bound to the caller.
 */
export function proofVerifyRoute(service: Pick<HistoryService, "identify">, proofs: ProofService): HttpMiddleware {
  return async (ctx) => {
    const identity = await identifyHistoryRequest(service, ctx);
    const parsed = ProofVerifyRequestSchema.safeParse(ctx.request.body);
    if (!parsed.success) throw new HistoryBadRequestError(`invalid request: ${describeIssues(parsed.error)}`);
    ctx.body = valueOrAnswer(await proofs.verify(identity, parsed.data.proofId));
  };
}
