import { readFile } from "node:fs/promises";
import { join } from "node:path";

import { AddressSchema, DecimalStringSchema, NetworkSchema, type Offer } from "@svc/scheme";
import { z } from "zod";

import { BaseUnitsSchema } from "../ledger/baseUnitsSchema.js";

/** Folder of the approval files inside the state folder. */
export const APPROVALS_DIR = "approvals";

/** Approval ids are ledger payment ids; the pattern also keeps a typed id from naming a path. */
export const APPROVAL_ID_PATTERN = /^[0-9a-f]{12}$/;

/** The part of the scheme's `Offer` an approval request shows a human: which token and how much. */
export type ApprovalOffer = Pick<Offer, "asset" | "amount">;

/**
 * What a waiting agent writes to `approvals/<id>.request.json`: enough for a human to decide. Parsing gives
 * the in-memory request (its `amount` a bigint, as in the scheme's `Offer`); `z.encode` gives back the file's strings.
 */
export const ApprovalRequestSchema = z.object({
  id: z.string().regex(APPROVAL_ID_PATTERN),
  url: z.string(),
  mode: z.enum(["permit", "self-transfer"]),
  network: NetworkSchema,
  asset: AddressSchema,
  amount: BaseUnitsSchema,
  /** The `SVC_APPROVE_ABOVE` threshold the amount exceeded. */
  threshold: DecimalStringSchema,
  /** The offer's `extra.expiresAt`, unix seconds. */
  offerExpiresAt: z.number().int(),
  /** Unix milliseconds after which the agent declines on its own. */
  decideBy: z.number().int(),
  /** What set `decideBy`: `SVC_APPROVAL_TIMEOUT_MS`, or the offer's last usable moment when that comes first. */
  decideByReason: z.enum(["approval_timeout", "offer_expiry"]).optional(),
  /** The waiting agent process; a request whose process is gone is not pending any more. */
  pid: z.number().int().positive(),
  createdAt: z.iso.datetime(),
}) satisfies z.ZodType<ApprovalOffer>;

/** A pending approval, in memory. */
export type ApprovalRequest = z.output<typeof ApprovalRequestSchema>;

/** The outcomes a decision file can record; `expired` is written by the agent itself at its timeout. */
export const ApprovalDecisionSchema = z.object({
  id: z.string().regex(APPROVAL_ID_PATTERN),
  decision: z.enum(["approved", "denied", "expired"]),
  by: z.string(),
  decidedAt: z.iso.datetime(),
});

/** A decision as `approvals/<id>.decision.json` holds it. */
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;

/** Paths of one approval's files. */
export function approvalPaths(stateDir: string, id: string): { dir: string; request: string; decision: string } {
  const dir = join(stateDir, APPROVALS_DIR);
  return { dir, request: join(dir, `${id}.request.json`), decision: join(dir, `${id}.decision.json`) };
}

/** Reads and validates a JSON file; `undefined` when it is missing or not (yet) valid. */
export async function readJsonFile<T>(path: string, schema: z.ZodType<T>): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
