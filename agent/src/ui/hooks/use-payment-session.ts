import { useCallback, useEffect, useRef, useState } from "react";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import type { ApprovalResult } from "../../approvals/requestApproval.js";
import { describeError } from "../../errors/describeError.js";
import type { PaymentPhase } from "../../payment/payEvent.js";
import { httpErrorOutcome } from "../../payment/httpErrorOutcome.js";
import type { PayOutcome } from "../../payment/payOutcome.js";
import type { Quote } from "../../payment/quote.js";
import type { QuoteVerdict } from "../../payment/quoteVerdict.js";
import type { TokenInfo } from "../../payment/tokenInfo.js";
import type { TuiDependencies } from "../tuiDependencies.js";

/** A quote on screen: the offer, the policy's verdict and the token's display data. */
export type QuotedOffer = { quote: Quote; verdict: QuoteVerdict; token: TokenInfo | undefined };

/** Where the TUI's purchase stands; each stage is one screen state. */
export type SessionState =
  | { stage: "idle" }
  | { stage: "quoting"; url: URL }
  | { stage: "quote-failed"; url: URL; message: string }
  | { stage: "not-required"; url: URL; status: number; body: string }
  /** The unpaid request answered a non-2xx status other than 402: a failure, with the exit code of `pay`. */
  | { stage: "http-error"; url: URL; outcome: Extract<PayOutcome, { kind: "http-error" }> }
  | ({ stage: "quoted" } & QuotedOffer)
  | ({
      stage: "paying";
      id: string | undefined;
      /** Phases reached so far, in order. */
      phases: PaymentPhase[];
      txHash: `0x${string}` | undefined;
      /** Set while the inline approval prompt waits for y or n. */
      approval: ApprovalRequest | undefined;
    } & QuotedOffer)
  | ({ stage: "done"; phases: PaymentPhase[]; outcome: PayOutcome } & QuotedOffer);

/** The session's state and the actions keys trigger. */
export type PaymentSession = {
  state: SessionState;
  /** Requests a fresh 402 for the URL (a new offer; the old one is never reused after paying). */
  requote: () => void;
  /** Pays the quoted offer, if the policy allows it. */
  pay: () => void;
  /** Answers the inline approval prompt. */
  answerApproval: (approved: boolean) => void;
  /** The last payment's outcome, for the exit code. */
  lastOutcome: PayOutcome | undefined;
};

/**
 * The purchase state machine behind the TUI: quote on start, pay on request through the same `payQuote`
 * pipeline as the headless agent, with an inline approval prompt (declined at `decideBy`) as its approval
 * gate, and every payment phase recorded as it happens.
 */
export function usePaymentSession(dependencies: TuiDependencies, url: URL | undefined): PaymentSession {
  const [state, setState] = useState<SessionState>(url === undefined ? { stage: "idle" } : { stage: "quoting", url });
  const [lastOutcome, setLastOutcome] = useState<PayOutcome>();
  const answer = useRef<((result: ApprovalResult) => void) | undefined>(undefined);
  const mounted = useRef(true);
  const busy = useRef(false);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      answer.current?.("denied");
    };
  }, []);

  const update = useCallback((next: SessionState | ((previous: SessionState) => SessionState)) => {
    if (mounted.current) setState(next);
  }, []);

  const requote = useCallback(() => {
    if (url === undefined || busy.current) return;
    busy.current = true;
    update({ stage: "quoting", url });
    void (async () => {
      try {
        const result = await dependencies.quote(url);
        if (result.kind === "not-required") {
          update({ stage: "not-required", url, status: result.response.status, body: result.response.body.toString("utf8") });
        } else if (result.kind === "http-error") {
          const outcome = httpErrorOutcome(result.response);
          if (mounted.current) setLastOutcome(outcome);
          update({ stage: "http-error", url, outcome });
        } else if (result.kind === "no-offer") {
          update({ stage: "quote-failed", url, message: result.message });
        } else {
          const [verdict, token] = await Promise.all([dependencies.verdict(result.quote), dependencies.tokenInfo(result.quote.offer.asset)]);
          update({ stage: "quoted", quote: result.quote, verdict, token });
        }
      } catch (error) {
        update({ stage: "quote-failed", url, message: describeError(error) });
      } finally {
        busy.current = false;
      }
    })();
  }, [dependencies, url, update]);

  useEffect(() => {
    requote();
  }, [requote]);

  const pay = useCallback(() => {
    if (state.stage !== "quoted" || state.verdict.kind === "declined" || busy.current) return;
    busy.current = true;
    const offer: QuotedOffer = { quote: state.quote, verdict: state.verdict, token: state.token };
    update({ stage: "paying", ...offer, id: undefined, phases: [], txHash: undefined, approval: undefined });
    const patchPaying = (change: (paying: Extract<SessionState, { stage: "paying" }>) => SessionState) =>
      update((previous) => (previous.stage === "paying" ? change(previous) : previous));
    void (async () => {
      let outcome: PayOutcome;
      try {
        outcome = await dependencies.pay({
          quote: offer.quote,
          approve: (request) =>
            new Promise<ApprovalResult>((resolve) => {
              const finish = (result: ApprovalResult) => {
                clearTimeout(timer);
                answer.current = undefined;
                patchPaying((paying) => ({ ...paying, approval: undefined }));
                resolve(result);
              };
              const timer = setTimeout(() => finish("timed-out"), Math.max(0, request.decideBy - dependencies.now()));
              answer.current = finish;
              patchPaying((paying) => ({ ...paying, approval: request }));
            }),
          onEvent: (event) => {
            if (event.type === "reserved") patchPaying((paying) => ({ ...paying, id: event.id }));
            if (event.type === "phase") {
              patchPaying((paying) => ({ ...paying, phases: [...paying.phases, event.phase], txHash: event.txHash ?? paying.txHash }));
            }
          },
        });
      } catch (error) {
        outcome = { kind: "failed", message: describeError(error) };
      }
      busy.current = false;
      if (!mounted.current) return;
      setLastOutcome(outcome);
      update((previous) => ({ stage: "done", ...offer, phases: previous.stage === "paying" ? previous.phases : [], outcome }));
    })();
  }, [dependencies, state, update]);

  const answerApproval = useCallback((approved: boolean) => {
    answer.current?.(approved ? "approved" : "denied");
  }, []);

  return { state, requote, pay, answerApproval, lastOutcome };
}
