import { describeIssues, ProofRevokeRequestSchema } from "@svc/scheme";

import { HistoryBadRequestError } from "../../../history/errors.js";
import type { HistoryService } from "../../../history/createHistoryService.js";
import type { ProofService } from "../../../history/proofs/createProofService.js";
import type { HttpMiddleware } from "../../httpState.js";
import { valueOrAnswer } from "./answerRefusal.js";
import { identifyHistoryRequest } from "./identifyHistoryRequest.js";

/**
 * `POST /history/proofs/revoke` `{ proofId, reason? }` (bearer identity token) → `{ proofId, status,
 * statusChain }`: appends a signed revocation to the proof's status chain (a second call returns the first
 * revocation). 403 for a bound participant that did not issue the proof, 404 for anyone else.
 */
export function proofRevokeRoute(service: Pick<HistoryService, "identify">, proofs: ProofService): HttpMiddleware {
  return async (ctx) => {
    const identity = await identifyHistoryRequest(service, ctx);
    const parsed = ProofRevokeRequestSchema.safeParse(ctx.request.body);
    if (!parsed.success) throw new HistoryBadRequestError(`invalid request: ${describeIssues(parsed.error)}`);
    ctx.body = valueOrAnswer(await proofs.revoke(identity, parsed.data.proofId, parsed.data.reason));
  };
}
