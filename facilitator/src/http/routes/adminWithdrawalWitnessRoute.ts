import { Bytes32Schema } from "@svc/scheme";
import type { AppDependencies } from "../appDependencies.js";
import { InvalidRequestError, UnknownPaymentError } from "../errors.js";
import type { HttpMiddleware } from "../httpState.js";

/**
 * `GET /admin/withdrawal-witness/:challengeNonce` (behind the admin token): the payment's withdrawal witness,
 * burn secret included, for `facilitator withdrawal-witness`. 404 for a payment never accepted; the body is
 * never logged (the request log records method, route and status only).
 */
export function adminWithdrawalWitnessRoute(deps: Pick<AppDependencies, "admin">): HttpMiddleware {
  return async (ctx) => {
    const nonce = Bytes32Schema.safeParse(ctx.params.challengeNonce);
    if (!nonce.success) throw new InvalidRequestError({ reason: "the challenge nonce must be 0x and 64 hex digits" });
    const witness = await deps.admin.withdrawalWitness(nonce.data);
    if (witness === undefined) throw new UnknownPaymentError();
    ctx.body = witness;
  };
}
