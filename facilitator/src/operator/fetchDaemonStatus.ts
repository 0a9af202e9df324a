/**
 * Reads a running daemon's state through its HTTP API for `facilitator status`: `/readyz` (public), then
 * `/admin/status` and the failed and late-burn pages of `/admin/settlements` with the admin token. Every
 * answer is parsed before use; nothing here quotes the token.
 */
import { z } from "zod";

import { redactUrl } from "../config/redactUrl.js";
import { AdminTokenRejectedError, DaemonUnreachableError } from "./errors.js";
import { READINESS_COMPONENTS } from "../readiness/readinessReport.js";
import { type AdminStatus, AdminStatusSchema } from "./adminStatus.js";

const ComponentSchema = z.object({
  ready: z.boolean(),
  reason: z.string().optional(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});

const ReadinessAnswerSchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  failing: z.array(z.string()).optional(),
  components: z.object(
    Object.fromEntries(READINESS_COMPONENTS.map((name) => [name, ComponentSchema])) as Record<(typeof READINESS_COMPONENTS)[number], typeof ComponentSchema>,
  ),
});

const SettlementPageSchema = z.object({
  settlements: z.array(
    z.object({ challengeNonce: z.string(), state: z.string(), path: z.string(), amount: z.string(), burnTxHash: z.string(), reason: z.string().optional() }),
  ),
  total: z.int().min(0),
});

/** The `/readyz` answer. */
export type ReadinessAnswer = z.infer<typeof ReadinessAnswerSchema>;

/** One page of `/admin/settlements`. */
export type SettlementPage = z.infer<typeof SettlementPageSchema>;

/** Everything `facilitator status` shows. */
export type DaemonStatus = {
  /** The daemon's base URL, credential-redacted. */
  url: string;
  readiness: ReadinessAnswer;
  status: AdminStatus;
  failed: SettlementPage;
  lateBurns: SettlementPage;
};

/** Fetches the daemon's status; throws {@link DaemonUnreachableError} or {@link AdminTokenRejectedError}. */
export async function fetchDaemonStatus(params: { url: string; adminToken: string | undefined; limit: number; timeoutMs: number }): Promise<DaemonStatus> {
  const base = params.url.replace(/\/+$/, "");
  const shown = redactUrl(base).replace(/\/+$/, "");
  const get = async <T>(path: string, schema: z.ZodType<T>, admin: boolean): Promise<T> => {
    const headers: Record<string, string> = admin && params.adminToken !== undefined ? { authorization: `Bearer ${params.adminToken}` } : {};
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(params.timeoutMs), redirect: "manual" });
    } catch (cause) {
      throw new DaemonUnreachableError({ url: shown, problem: "no answer (is the daemon running?)", cause });
    }
    if (admin && response.status === 401) throw new AdminTokenRejectedError({ tokenSet: params.adminToken !== undefined });
    // /readyz answers 503 with the same body shape while not ready.
    const expected = path === "/readyz" ? [200, 503] : [200];
    if (!expected.includes(response.status)) throw new DaemonUnreachableError({ url: shown, problem: `${path} answered HTTP ${response.status}` });
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new DaemonUnreachableError({ url: shown, problem: `${path} answered an unexpected body` });
    return parsed.data;
  };
  const readiness = await get("/readyz", ReadinessAnswerSchema, false);
  const [status, failed, lateBurns] = await Promise.all([
    get("/admin/status", AdminStatusSchema, true),
    get(`/admin/settlements?state=failed&limit=${params.limit}`, SettlementPageSchema, true),
    get(`/admin/settlements?state=late_burn&limit=${params.limit}`, SettlementPageSchema, true),
  ]);
  return { url: shown, readiness, status, failed, lateBurns };
}
