import { useCallback, useEffect, useRef, useState } from "react";

import type { ApprovalRequest } from "../../approvals/approvalFiles.js";
import { ApprovalInterruptedError } from "../../approvals/errors.js";
import type { ApprovalResult } from "../../approvals/requestApproval.js";
import { describeError } from "../../errors/describeError.js";
import { amountFormat } from "../../payment/amountFormat.js";
import { httpErrorOutcome } from "../../payment/httpErrorOutcome.js";
import type { OnPayEvent, PaymentPhase } from "../../payment/payEvent.js";
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
      /** True while a stored payment of unknown outcome is being re-sent. */
      resending: boolean;
    } & QuotedOffer)
  | ({ stage: "done"; phases: PaymentPhase[]; outcome: PayOutcome } & QuotedOffer);

/** The session's state and the actions keys trigger. */
export type PaymentSession = {
  state: SessionState;
  /** Requests a fresh 402 for the URL (a new offer; the old one is never reused after paying). */
  requote: () => void;
  /** Pays the quoted offer, if the policy allows it. */
  pay: () => void;
  /** Re-sends the stored payment of an unknown outcome, byte for byte; never signs again. */
  resend: () => void;
  /** Answers the inline approval prompt. */
  answerApproval: (approved: boolean) => void;
  /** Withdraws the inline approval request without deciding (quitting): the reservation is released, nothing paid. */
  withdrawApproval: () => void;
  /** Resolves once no payment is running, so quitting never cuts off a ledger write. */
  idle: () => Promise<void>;
  /** The last payment's outcome (or the last request's HTTP error), for the exit code. */
  lastOutcome: PayOutcome | undefined;
};

type PendingAnswer = { resolve: (result: ApprovalResult) => void; reject: (error: Error) => void };

/**
 * The purchase state machine behind the TUI: quote on start, pay on request through the same `payQuote`
 * pipeline as the headless agent, with an inline approval prompt (declined at `decideBy`) as its approval
 * gate, every payment phase recorded as it happens, and `resend` for an unknown outcome.
 */
export function usePaymentSession(dependencies: TuiDependencies, url: URL | undefined): PaymentSession {
  const [state, setState] = useState<SessionState>(url === undefined ? { stage: "idle" } : { stage: "quoting", url });
  const [lastOutcome, setLastOutcome] = useState<PayOutcome>();
  const answer = useRef<PendingAnswer | undefined>(undefined);
  const mounted = useRef(true);
  const busy = useRef(false);
  const work = useRef<Promise<void>>(Promise.resolve());

  const withdrawApproval = useCallback(() => {
    const pending = answer.current;
    if (pending === undefined) return;
    answer.current = undefined;
    pending.reject(new ApprovalInterruptedError({ id: "withdrawn" }));
  }, []);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      withdrawApproval();
    };
  }, [withdrawApproval]);

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
          const token = await dependencies.tokenInfo(result.quote.offer.asset);
          const verdict = await dependencies.verdict(result.quote, amountFormat(token));
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

  /** Runs one payment (or re-send) from the `paying` stage to `done`, tracking it so quitting can wait for it. */
  const run = useCallback(
    (offer: QuotedOffer, resending: boolean, start: (onEvent: OnPayEvent) => Promise<PayOutcome>) => {
      busy.current = true;
      update({ stage: "paying", ...offer, id: undefined, phases: [], txHash: undefined, approval: undefined, resending });
      const patchPaying = (change: (paying: Extract<SessionState, { stage: "paying" }>) => SessionState) =>
        update((previous) => (previous.stage === "paying" ? change(previous) : previous));
      const onEvent: OnPayEvent = (event) => {
        if (event.type === "reserved") patchPaying((paying) => ({ ...paying, id: event.id }));
        if (event.type === "phase") {
          patchPaying((paying) => ({ ...paying, id: event.id, phases: [...paying.phases, event.phase], txHash: event.txHash ?? paying.txHash }));
        }
      };
      work.current = (async () => {
        let outcome: PayOutcome;
        try {
          outcome = await start(onEvent);
        } catch (error) {
          outcome = { kind: "failed", message: describeError(error) };
        }
        busy.current = false;
        if (!mounted.current) return;
        setLastOutcome(outcome);
        update((previous) => ({ stage: "done", ...offer, phases: previous.stage === "paying" ? previous.phases : [], outcome }));
      })();
    },
    [update],
  );

  const pay = useCallback(() => {
    if (state.stage !== "quoted" || state.verdict.kind === "declined" || busy.current) return;
    const offer: QuotedOffer = { quote: state.quote, verdict: state.verdict, token: state.token };
    const patchApproval = (request: ApprovalRequest | undefined) =>
      update((previous) => (previous.stage === "paying" ? { ...previous, approval: request } : previous));
    run(offer, false, (onEvent) =>
      dependencies.pay({
        quote: offer.quote,
        format: amountFormat(offer.token),
        onEvent,
        approve: (request) =>
          new Promise<ApprovalResult>((resolve, reject) => {
            const settle = () => {
              clearTimeout(timer);
              answer.current = undefined;
              patchApproval(undefined);
            };
            const timer = setTimeout(
              () => {
                settle();
                resolve("timed-out");
              },
              Math.max(0, request.decideBy - dependencies.now()),
            );
            answer.current = {
              resolve: (result) => {
                settle();
                resolve(result);
              },
              reject: (error) => {
                settle();
                reject(error);
              },
            };
            patchApproval(request);
          }),
      }),
    );
  }, [dependencies, state, update, run]);

  const resend = useCallback(() => {
    const { resend: resendStored } = dependencies;
    if (state.stage !== "done" || state.outcome.kind !== "unknown" || resendStored === undefined || busy.current) return;
    const { id } = state.outcome;
    run({ quote: state.quote, verdict: state.verdict, token: state.token }, true, (onEvent) => resendStored({ id, onEvent }));
  }, [dependencies, state, run]);

  const answerApproval = useCallback((approved: boolean) => {
    answer.current?.resolve(approved ? "approved" : "denied");
  }, []);

  const idle = useCallback(() => work.current, []);

  return { state, requote, pay, resend, answerApproval, withdrawApproval, idle, lastOutcome };
}
