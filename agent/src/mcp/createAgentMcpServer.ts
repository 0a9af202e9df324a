import { randomBytes } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { toNetwork } from "@svc/scheme";
import { z } from "zod";

import { AddressSchema } from "@svc/scheme";
import type { ApprovalRequest } from "../approvals/approvalFiles.js";
import { listPendingApprovals } from "../approvals/listPendingApprovals.js";
import { requestApproval } from "../approvals/requestApproval.js";
import { BINARY_NAME } from "../commands/binaryName.js";
import { describeError } from "../errors/describeError.js";
import { LedgerEntryNotFoundError } from "../ledger/errors.js";
import { Ledger } from "../ledger/ledger.js";
import { REQUEST_METHODS } from "../ledger/ledgerEntry.js";
import { parsePaymentId } from "../ledger/paymentId.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { summarizeSpend } from "../ledger/summarizeSpend.js";
import { amountFormat, BASE_UNITS_FORMAT, readTokens } from "../payment/amountFormat.js";
import { httpErrorOutcome } from "../payment/httpErrorOutcome.js";
import { payUrl } from "../payment/payUrl.js";
import { limitStatusJson, limitsStatus } from "../policy/limitsStatus.js";
import { fetchQuote } from "../payment/quote.js";
import { quoteVerdict } from "../payment/quoteVerdict.js";
import { resendPayment } from "../payment/resendPayment.js";
import { readTokenInfo } from "../payment/tokenInfo.js";
import type { Policy } from "../policy/policy.js";
import { describeSpendAmount, type SpendAmount } from "../policy/spendAmount.js";
import { limitsForToken } from "../policy/tokenLimits.js";
import { approvalProgress } from "./approvalProgress.js";
import { outcomeToolResult } from "./outcomeToolResult.js";
import { payerInfo } from "./payerInfo.js";
import {
  approvalRequiredResult,
  ledgerStatusResult,
  PAYMENT_STATUS_DEFAULT_WAIT_S,
  PAYMENT_STATUS_MAX_WAIT_S,
  pendingResult,
  sessionEndResult,
} from "./paymentStatusResult.js";
import { errorReason, requestFailure } from "./requestFailure.js";
import { SessionPayments, settleEnd } from "./sessionPayments.js";
import { toolError, toolResult } from "./toolResult.js";

/** The tool names a model sees. */
export const MCP_TOOLS = {
  quote: "quote_resource",
  fetch: "fetch_resource",
  paymentStatus: "payment_status",
  resend: "resend_payment",
  status: "spending_status",
  payerInfo: "payer_info",
} as const;

/** How often `payment_status` re-reads the ledger for a payment another session started. */
const LEDGER_POLL_MS = 200;

/** The server and what ends its session: approvals still waiting are withdrawn, approved payments finish. */
export type AgentMcpServer = { server: McpServer; closeSession: () => Promise<void> };

const UrlSchema = z.string().describe("the http:// or https:// URL of the resource");

/** Characters of a request body `fetch_resource` accepts. */
export const MCP_REQUEST_BODY_LIMIT = 65_536;

/** Headers only the agent sets: the x402 payment headers (lower-case). */
const PAYMENT_HEADER_NAMES: ReadonlySet<string> = new Set(["payment-signature", "x-payment", "payment-required", "payment-response"]);

/**
 * The agent as an MCP server: six tools over the same policy, spend ledger, approval files and stored
 * payments as the headless CLI (`SVC_*` variables, `SVC_STATE_DIR`). The private key stays in this process:
 * no tool result carries it, a signature or a stored payment header. A payment above `SVC_APPROVE_ABOVE`
 * answers `approval_required` at once, so no call outlives a client's default request timeout; the payment
 * goes on in this process, made once when a human approves, and `payment_status` waits (boundedly) for it.
 *
 * @example
 * await createAgentMcpServer(loadPolicy(process.env)).server.connect(new StdioServerTransport());
 */
export function createAgentMcpServer(policy: Policy): AgentMcpServer {
  const server = new McpServer({ name: "svc-agent", version: "0.1.0" });
  const ledger = new Ledger(policy.stateDir);
  const payments = new SessionPayments();
  // Names this server's run in the ledger, so SVC_MAX_PER_MCP_SESSION counts what this session reserved.
  const mcpSession = randomBytes(8).toString("hex");

  server.registerTool(
    MCP_TOOLS.quote,
    {
      title: "Quote an x402 resource",
      description:
        "Asks what a URL would cost without paying: requests it unpaid and reads its x402 (svc-zerc20) offer. Returns the amount in token units and base units, the token and network, whether the payer's policy would pay it, whether a human must approve it first, and the spend so far against the cap. Signs nothing, spends nothing.",
      inputSchema: { url: UrlSchema },
    },
    async ({ url }) => {
      const target = parseUrl(url);
      if (target === undefined) return toolError("invalid_url", "The url must be an http:// or https:// URL.");
      try {
        const result = await fetchQuote({ url: target, policy });
        if (result.kind === "not-required")
          return toolResult(`No payment is needed: ${target.href} answered HTTP ${result.response.status}.`, {
            result: "not_required",
            status: result.response.status,
          });
        if (result.kind === "http-error") return toolError("http_error", httpErrorOutcome(result.response).message, { status: result.response.status });
        if (result.kind === "no-offer") return toolError("no_scheme_offer", `The resource asks for a payment this agent cannot make: ${result.message}.`);
        const { offer } = result.quote;
        const format = amountFormat(await readTokenInfo(policy, offer.asset));
        const verdict = await quoteVerdict(result.quote, policy, ledger, format);
        return toolResult(
          verdict.kind === "declined"
            ? `It costs ${format(offer.amount)}; the policy would refuse to pay (${verdict.reason}): ${verdict.message}.`
            : `It costs ${format(offer.amount)}; the policy would pay it${verdict.needsApproval ? " after a human approves" : ""}.`,
          {
            result: "offer",
            url: result.quote.url.href,
            amount: format(offer.amount),
            amountBaseUnits: offer.amount.toString(),
            network: toNetwork(offer.chainId),
            asset: offer.asset,
            expiresAt: new Date(offer.expiresAt * 1000).toISOString(),
            allowed: verdict.kind === "allowed",
            reason: verdict.kind === "declined" ? verdict.reason : null,
            needsApproval: verdict.kind === "allowed" && verdict.needsApproval,
            spent: format(verdict.spent),
            cap: verdict.cap === undefined ? null : format(verdict.cap),
          },
        );
      } catch (error) {
        return requestFailure(error);
      }
    },
  );

  server.registerTool(
    MCP_TOOLS.fetch,
    {
      title: "Fetch an x402 resource, paying if needed",
      description: `Fetches a URL (GET unless \`method\` says otherwise, with optional \`headers\` and text \`body\`) and, if it answers 402 with an svc-zerc20 offer, pays it under the payer's policy (allowed hosts, network, token, per-payment and total caps), then returns the resource (status, content type, body cut after 65536 characters) and the payment (amount in token and base units, payment id, burn transaction). Above the approval threshold it answers at once with status "approval_required", an approvalId and expiresAt: a human approves in \`${BINARY_NAME} tui\` or with \`${BINARY_NAME} approvals approve <id>\`, the payment is made then, and payment_status with the approvalId returns the result (never fetch again meanwhile). Refusals are errors with a reason code: host_not_allowed, above_max_total, above_max_per_hour/day/week/month, above_max_per_host, above_max_per_mcp_session, approval_denied, outcome_unknown (then call resend_payment with the id; never fetch again), and others. Never pays the same offer twice.`,
      inputSchema: {
        url: UrlSchema,
        method: z.enum(REQUEST_METHODS).optional().describe("the HTTP method; GET when omitted"),
        headers: z.record(z.string(), z.string()).optional().describe("extra request headers; payment headers are set by the agent and cannot be given"),
        body: z.string().max(MCP_REQUEST_BODY_LIMIT).optional().describe(`a text request body, at most ${MCP_REQUEST_BODY_LIMIT} characters`),
      },
    },
    async ({ url, method, headers, body }) => {
      const target = parseUrl(url);
      if (target === undefined) return toolError("invalid_url", "The url must be an http:// or https:// URL.");
      const given = Object.keys(headers ?? {}).find((name) => PAYMENT_HEADER_NAMES.has(name.toLowerCase()));
      if (given !== undefined) return toolError("payment_header_given", `The ${given} header is the agent's to set; call again without it.`);
      const request = method === undefined && headers === undefined && body === undefined ? undefined : { method: method ?? "GET", headers, body };
      let format = BASE_UNITS_FORMAT;
      let announce: (request: ApprovalRequest) => void = () => undefined;
      const approvalAsked = new Promise<ApprovalRequest>((resolve) => {
        announce = resolve;
      });
      const end = settleEnd(
        payUrl({
          url: target,
          policy,
          ledger,
          request,
          mcpSession,
          readToken: (asset) => readTokenInfo(policy, asset),
          // The wait outlives this call: it ends with the human's decision, the deadline, or the session.
          approve: (request) => requestApproval({ stateDir: policy.stateDir, request, signal: payments.signal, onPending: announce }),
          onEvent: (event) => {
            if (event.type === "quoted") format = amountFormat(event.token);
          },
        }),
        () => format,
      );
      const first = await Promise.race([end, approvalAsked]);
      if ("id" in first) {
        payments.track(first, end);
        return approvalRequiredResult(first, format);
      }
      return "error" in first ? requestFailure(first.error) : outcomeToolResult(first.outcome, first.format);
    },
  );

  server.registerTool(
    MCP_TOOLS.paymentStatus,
    {
      title: "Wait for a payment's approval",
      description: `After fetch_resource answered "approval_required", reports what became of that payment, waiting up to \`waitSeconds\` (default ${PAYMENT_STATUS_DEFAULT_WAIT_S}, at most ${PAYMENT_STATUS_MAX_WAIT_S}) for the human to decide. Status: "pending" (not decided yet: call again), "in_progress" (approved, being paid: call again), "paid" (with the payment and, for the session that fetched, the resource), "denied", "expired" (nobody decided in time), or how an approved payment failed. Never pays anything itself: the payment is made once, when the human approves.`,
      inputSchema: {
        approvalId: z.string().describe("the approvalId fetch_resource returned (12 hex digits)"),
        waitSeconds: z
          .number()
          .int()
          .min(0)
          .max(PAYMENT_STATUS_MAX_WAIT_S)
          .optional()
          .describe(`how long to wait for a decision, in seconds; ${PAYMENT_STATUS_DEFAULT_WAIT_S} when omitted`),
      },
    },
    async ({ approvalId, waitSeconds }, extra) => {
      try {
        parsePaymentId(approvalId);
        const deadline = Date.now() + (waitSeconds ?? PAYMENT_STATUS_DEFAULT_WAIT_S) * 1000;
        const mine = payments.get(approvalId);
        if (mine !== undefined) {
          const format = amountFormat(await readTokenInfo(policy, mine.request.asset));
          const progress = approvalProgress(mine.request, extra, format);
          try {
            const end = await Promise.race([mine.end, untilDeadline(deadline, extra.signal)]);
            return end === undefined ? pendingResult(mine.request, format) : sessionEndResult(end);
          } finally {
            progress.stop();
          }
        }
        // A payment another session or process started: the ledger and the approval files say where it stands.
        let entry = await ledger.get(approvalId);
        const format = amountFormat(await readTokenInfo(policy, entry.asset));
        for (;;) {
          const pending = (await listPendingApprovals(policy.stateDir)).find((request) => request.id === approvalId);
          const result = ledgerStatusResult(entry, pending, format);
          const status = (result.structuredContent as { status?: string } | undefined)?.status;
          if ((status !== "pending" && status !== "in_progress") || Date.now() >= deadline || extra.signal.aborted) return result;
          await untilDeadline(Math.min(deadline, Date.now() + LEDGER_POLL_MS), extra.signal);
          entry = await ledger.get(approvalId);
        }
      } catch (error) {
        if (error instanceof LedgerEntryNotFoundError) return toolError("payment_not_found", `No payment with id ${approvalId} in this payer's ledger.`);
        return toolError(errorReason(error), describeError(error));
      }
    },
  );

  server.registerTool(
    MCP_TOOLS.resend,
    {
      title: "Re-send a payment of unknown outcome",
      description:
        "After fetch_resource reported outcome_unknown, re-sends exactly the stored signed payment for that payment id, once, and returns the resource and the payment like fetch_resource. Nothing is signed or paid again: a payment that already settled gets the same result. Refused once the offer has expired.",
      inputSchema: { id: z.string().describe("the payment id fetch_resource returned (12 hex digits), or the facilitator's 0x… payment id") },
    },
    async ({ id }) => {
      try {
        parsePaymentId(id);
        const outcome = await resendPayment({ id, policy, ledger });
        const asset = outcome.kind === "not-required" || outcome.kind === "http-error" ? undefined : outcome.offer?.asset;
        const format = asset === undefined ? BASE_UNITS_FORMAT : amountFormat(await readTokenInfo(policy, asset as `0x${string}`));
        return outcomeToolResult(outcome, format);
      } catch (error) {
        return toolError(errorReason(error), describeError(error));
      }
    },
  );

  server.registerTool(
    MCP_TOOLS.status,
    {
      title: "Spending status",
      description:
        "The payer's caps (per payment, total per network and token, approval threshold), what has been spent and what remains under the total cap, per network and token; every configured ledger limit (total, rolling hour/day/week/30 days, per host, this MCP session) with what it has used, what is left and when a window frees up (freesAt, ISO); and the payments waiting for a human's approval.",
      inputSchema: {},
    },
    async () => {
      const [entries, pending] = await Promise.all([ledger.entries(), listPendingApprovals(policy.stateDir)]);
      const summaries = summarizeSpend(entries);
      const assets = [...summaries.map((summary) => summary.asset), ...pending.map((request) => request.asset)];
      const tokenFor = await readTokens(policy, [...assets, ...(policy.allowedToken === undefined ? [] : [policy.allowedToken])]);
      const formatFor = (asset: string) => amountFormat(tokenFor(asset));
      const capToken = tokenFor(summaries[0]?.asset ?? policy.allowedToken ?? "");
      const capText = (amount: SpendAmount | undefined) => (amount === undefined ? null : describeSpendAmount(amount, capToken));
      return toolResult(
        `${summaries.length === 0 ? "Nothing spent yet" : `Spent on ${summaries.length} token(s)`}; ${pending.length} payment(s) waiting for approval.`,
        {
          caps: { perPayment: capText(policy.maxPerPayment), total: capText(policy.maxTotal), approvalAbove: capText(policy.approveAbove) },
          // Every configured ledger limit, this session's budget as this session has used it.
          limits: limitsStatus({ entries, policy, decimalsFor: (asset) => tokenFor(asset)?.decimals, now: Date.now(), mcpSession }).map((row) => {
            const format = formatFor(row.asset);
            return { ...limitStatusJson(row), used: format(row.used), left: row.left === undefined ? null : format(row.left) };
          }),
          spend: summaries.map((summary) => {
            const format = formatFor(summary.asset);
            const cap = limitsForToken(policy, tokenFor(summary.asset)?.decimals)?.maxTotal;
            return {
              network: summary.network,
              asset: summary.asset,
              spent: format(summary.total),
              spentBaseUnits: summary.total,
              settled: format(summary.settled),
              pending: format(summary.pending),
              remaining: cap === undefined ? null : format(remainingUnder(cap, summary.total)),
            };
          }),
          pendingApprovals: pending.map((request) => ({
            id: request.id,
            amount: formatFor(request.asset)(request.amount),
            url: request.url,
            decideBy: new Date(request.decideBy).toISOString(),
          })),
        },
      );
    },
  );

  server.registerTool(
    MCP_TOOLS.payerInfo,
    {
      title: "Payer address, balance and limits",
      description:
        "Who pays and how much it may: the payer's address, the network (CAIP-2) and chain id, the payment mode, the allowed hosts and token, and per token (the allowed token, the one given as `asset`, and every token already paid in) its symbol and decimals, the payer's balance in token units and base units, the spend so far and the configured limits (per payment, total cap and what remains under it, approval threshold, rolling hour/day/week/30-day windows, per host, per MCP session; null when not set) in token and base units, and limitsStatus: each configured ledger limit's use, what is left and when a window frees up. Signs nothing.",
      inputSchema: { asset: AddressSchema.optional().describe("a token address (0x and 40 hex digits) whose balance to report as well") },
    },
    async ({ asset }) => {
      try {
        const info = await payerInfo(policy, ledger, asset, mcpSession);
        const payer = info.payer === null ? "No payer key is configured (SVC_PAYER_PK); quoting works, paying does not" : `The payer is ${String(info.payer)}`;
        return toolResult(`${payer} on ${policy.allowedNetwork}.`, info);
      } catch (error) {
        return requestFailure(error);
      }
    },
  );
  return { server, closeSession: () => payments.close() };
}

/** Resolves `undefined` at `deadline` or when `signal` aborts, whichever is first. */
function untilDeadline(deadline: number, signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve(undefined);
    };
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    signal.addEventListener("abort", done);
  });
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}
