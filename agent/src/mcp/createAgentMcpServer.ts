import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { toNetwork } from "@svc/scheme";
import { z } from "zod";

import { listPendingApprovals } from "../approvals/listPendingApprovals.js";
import { requestApproval } from "../approvals/requestApproval.js";
import { BINARY_NAME } from "../commands/binaryName.js";
import { describeError } from "../errors/describeError.js";
import { HostNotAllowedError } from "../http/errors.js";
import { Ledger } from "../ledger/ledger.js";
import { REQUEST_METHODS } from "../ledger/ledgerEntry.js";
import { parsePaymentId } from "../ledger/paymentId.js";
import { remainingUnder } from "../ledger/remainingUnder.js";
import { summarizeSpend } from "../ledger/summarizeSpend.js";
import { amountFormat, BASE_UNITS_FORMAT, readTokens } from "../payment/amountFormat.js";
import { httpErrorOutcome } from "../payment/httpErrorOutcome.js";
import { payUrl } from "../payment/payUrl.js";
import { fetchQuote } from "../payment/quote.js";
import { quoteVerdict } from "../payment/quoteVerdict.js";
import { resendPayment } from "../payment/resendPayment.js";
import { readTokenInfo } from "../payment/tokenInfo.js";
import type { Policy } from "../policy/policy.js";
import { describeSpendAmount, type SpendAmount } from "../policy/spendAmount.js";
import { limitsForToken } from "../policy/tokenLimits.js";
import { approvalProgress } from "./approvalProgress.js";
import { outcomeToolResult } from "./outcomeToolResult.js";
import { toolError, toolResult } from "./toolResult.js";

/** The tool names a model sees. */
export const MCP_TOOLS = { quote: "quote_resource", fetch: "fetch_resource", resend: "resend_payment", status: "spending_status" } as const;

const UrlSchema = z.string().describe("the http:// or https:// URL of the resource");

/** Characters of a request body `fetch_resource` accepts. */
export const MCP_REQUEST_BODY_LIMIT = 65_536;

/** Headers only the agent sets: the x402 payment headers (lower-case). */
const PAYMENT_HEADER_NAMES: ReadonlySet<string> = new Set(["payment-signature", "x-payment", "payment-required", "payment-response"]);

/**
 * The agent as an MCP server: four tools over the same policy, spend ledger, approval files and stored
 * payments as the headless CLI (`SVC_*` variables, `SVC_STATE_DIR`). The private key stays in this process:
 * no tool result carries it, a signature or a stored payment header. A payment above `SVC_APPROVE_ABOVE`
 * waits for a human exactly as `pay` does, sending progress notifications when the client asked for them.
 *
 * @example
 * await createAgentMcpServer(loadPolicy(process.env)).connect(new StdioServerTransport());
 */
export function createAgentMcpServer(policy: Policy): McpServer {
  const server = new McpServer({ name: "svc-agent", version: "0.1.0" });
  const ledger = new Ledger(policy.stateDir);

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
      description: `Fetches a URL (GET unless \`method\` says otherwise, with optional \`headers\` and text \`body\`) and, if it answers 402 with an svc-zerc20 offer, pays it under the payer's policy (allowed hosts, network, token, per-payment and total caps), then returns the resource (status, content type, body cut after 65536 characters) and the payment (amount in token and base units, payment id, burn transaction). Above the approval threshold the call waits until a human approves in \`${BINARY_NAME} tui\` or with \`${BINARY_NAME} approvals approve <id>\` (progress notifications while it waits). Refusals are errors with a reason code: host_not_allowed, above_max_total, approval_denied, outcome_unknown (then call resend_payment with the id; never fetch again), and others. Never pays the same offer twice.`,
      inputSchema: {
        url: UrlSchema,
        method: z.enum(REQUEST_METHODS).optional().describe("the HTTP method; GET when omitted"),
        headers: z.record(z.string(), z.string()).optional().describe("extra request headers; payment headers are set by the agent and cannot be given"),
        body: z.string().max(MCP_REQUEST_BODY_LIMIT).optional().describe(`a text request body, at most ${MCP_REQUEST_BODY_LIMIT} characters`),
      },
    },
    async ({ url, method, headers, body }, extra) => {
      const target = parseUrl(url);
      if (target === undefined) return toolError("invalid_url", "The url must be an http:// or https:// URL.");
      const given = Object.keys(headers ?? {}).find((name) => PAYMENT_HEADER_NAMES.has(name.toLowerCase()));
      if (given !== undefined) return toolError("payment_header_given", `The ${given} header is the agent's to set; call again without it.`);
      const request = method === undefined && headers === undefined && body === undefined ? undefined : { method: method ?? "GET", headers, body };
      let format = BASE_UNITS_FORMAT;
      try {
        const outcome = await payUrl({
          url: target,
          policy,
          ledger,
          request,
          readToken: (asset) => readTokenInfo(policy, asset),
          approve: async (request) => {
            const progress = approvalProgress(request, extra, format);
            try {
              return await requestApproval({ stateDir: policy.stateDir, request, signal: extra.signal });
            } finally {
              progress.stop();
            }
          },
          onEvent: (event) => {
            if (event.type === "quoted") format = amountFormat(event.token);
          },
        });
        return outcomeToolResult(outcome, format);
      } catch (error) {
        return requestFailure(error);
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
        "The payer's caps (per payment, total per network and token, approval threshold), what has been spent and what remains under the total cap, per network and token, and the payments waiting for a human's approval.",
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
  return server;
}

function parseUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A request that could not run (unreachable, interrupted, a broken ledger) as a tool error; nothing was paid that is not in the ledger. */
function requestFailure(error: unknown) {
  return toolError(errorReason(error), describeError(error));
}

/** The reason code of an error that ended a tool call: the policy's for a refused host, else the error's name in snake_case. */
function errorReason(error: unknown): string {
  if (error instanceof HostNotAllowedError) return "host_not_allowed";
  const name = error instanceof Error ? error.name.replace(/Error$/, "") : "unexpected";
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase() || "unexpected";
}
