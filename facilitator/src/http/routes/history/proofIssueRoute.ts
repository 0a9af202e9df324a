import { describeIssues, ProofIssueRequestSchema } from "@svc/scheme";

import { HistoryBadRequestError } from "../../../history/errors.js";
import type { HistoryService } from "../../../history/createHistoryService.js";
import type { ProofService } from "../../../history/proofs/createProofService.js";
import type { HttpMiddleware } from "../../httpState.js";
import { valueOrAnswer } from "./answerRefusal.js";
import { identifyHistoryRequest } from "./identifyHistoryRequest.js";

/**
 * `POST /history/proofs/issue` `{ paymentId }` (bearer identity token) → `{ proofId, proof, manifest,
 * statusChain }`. Other body fields (a commitment, evidence) are dropped unread: the proof is built from the
 * persisted record only. 404 for a payment not bound to the caller, 409 before `accepted`.
 */
export function proofIssueRoute(service: Pick<HistoryService, "identify">, proofs: ProofService): HttpMiddleware {
  return async (ctx) => {
    const identity = await identifyHistoryRequest(service, ctx);
    const parsed = ProofIssueRequestSchema.safeParse(ctx.request.body);
    if (!parsed.success) throw new HistoryBadRequestError(`invalid request: ${describeIssues(parsed.error)}`);
    ctx.body = valueOrAnswer(await proofs.issue(identity, parsed.data.paymentId));
  };
}
