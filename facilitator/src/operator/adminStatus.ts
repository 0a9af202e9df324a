/**
 * The body of `GET /admin/status` as a zod schema: the daemon builds it, `facilitator status` parses it at
 * its edge, and both take the type from here.
 */
import { NativePoseidonPathSchema } from "@svc/scheme";
import { z } from "zod";

import { BACKLOG_STATES } from "./settlementBacklog.js";

const BacklogBucketSchema = z.object({ count: z.int().min(0), oldestAgeSeconds: z.int().min(0).nullable() });

const AccountSchema = z.object({
  address: z.string(),
  /** Native balance in wei as a decimal string; `null` when the RPC did not answer in time. */
  balanceWei: z
    .string()
    .regex(/^[0-9]+$/)
    .nullable(),
});

/** The burn-address stock: what is ready, the size aimed at, and the rates it is sized from. */
const StockStatusSchema = z.object({
  stocked: z.int().min(0),
  deriving: z.int().min(0),
  derived: z.int().min(0),
  stopped: z.boolean(),
  /** The configured size, never aimed below. */
  floor: z.int().min(0),
  /** Never aimed above. */
  ceiling: z.int().min(0),
  /** The size the workers refill to now. */
  target: z.int().min(0),
  /** Offers taken per second, exponentially weighted over about a minute. */
  offersPerSecond: z.number().min(0),
  /** Derivations per second while every worker is busy; `null` before the first derivation. */
  derivationsPerSecond: z.number().min(0).nullable(),
  /** Seconds the ready stock lasts at the current offer rate net of derivation; `null`: it does not run out. */
  lastsSeconds: z.number().min(0).nullable(),
});

/**
 * One RPC endpoint's health (chain/rpcEndpointHealth.ts): labelled `rpc#<index>` with its scheme and host only,
 * never a path or query, where providers put keys.
 */
export const RpcEndpointStatusSchema = z.object({
  endpoint: z.string(),
  origin: z.string(),
  up: z.boolean(),
  /** Failures since the endpoint last answered. */
  consecutiveFailures: z.int().min(0),
  /** Failed requests since start. */
  errors: z.int().min(0),
  /** Requests that passed it by while it was backed off. */
  skips: z.int().min(0),
  /** Milliseconds until a read may probe it again; `null` while up. */
  retryInMs: z.number().min(0).nullable(),
  /** The name of the last error (never its message), `null` before any. */
  lastError: z.string().nullable(),
});

/** One of {@link RpcEndpointStatusSchema}. */
export type RpcEndpointStatus = z.infer<typeof RpcEndpointStatusSchema>;

/** The Poseidon burn addresses derive with: `path` is the native addon's search path, `null` for `poseidon-lite`. */
export const PoseidonStatusSchema = z.object({ implementation: z.enum(["native", "poseidon-lite"]), path: NativePoseidonPathSchema.nullable() });

/** One of {@link PoseidonStatusSchema}. */
export type PoseidonStatus = z.infer<typeof PoseidonStatusSchema>;

/** `GET /admin/status`: backlog by state, open challenges, RPC endpoints, burn-address stock and Poseidon, relayer and treasury accounts. */
export const AdminStatusSchema = z.object({
  profile: z.string().nullable(),
  chainId: z.int(),
  backlog: z.object(
    Object.fromEntries(BACKLOG_STATES.map((state) => [state, BacklogBucketSchema])) as Record<(typeof BACKLOG_STATES)[number], typeof BacklogBucketSchema>,
  ),
  openChallenges: z.int().min(0),
  /** Every configured RPC endpoint, in the order requests try them. */
  rpcEndpoints: z.array(RpcEndpointStatusSchema),
  /** `null` under a non-local profile, which derives no burn addresses. */
  stock: StockStatusSchema.nullable(),
  poseidon: PoseidonStatusSchema,
  relayer: AccountSchema.extend({ queueDepth: z.int().min(0) }),
  treasury: AccountSchema,
  /** Present when `SVC_MINTER_PK` names a key of its own: the account that sends mints and fee distributions. */
  minter: AccountSchema.optional(),
  /**
   * `releasedAlone`: payments minted since start only because `finalize.max_delay_seconds` passed, with fewer
   * than `finalize.min_anonymity_set` mature same-amount payments waiting (linkable by an observer who knows
   * the policy). `decoysShort`: real leaves sent to the indexer since start with fewer than three decoys of
   * their value that pass for payment burns (absent from a daemon that predates it). The object is absent
   * from a daemon that does not report it.
   */
  finalize: z.object({ releasedAlone: z.int().min(0), decoysShort: z.int().min(0).optional() }).optional(),
  /**
   * The transfer-tree follower of `finalize.witnesses = "self"`, as its latest sync left it: its height
   * (`nextBlock`) against the chain's final block, its leaves against the verifier's proved index, the last
   * proved root it matched. Absent under `"indexer"` and before the follower opened.
   */
  witnesses: z
    .object({
      leaves: z.int().min(0),
      leavesBehind: z.int().min(0),
      provedIndex: z.int().min(0).nullable(),
      lastCheckedIndex: z.int().min(0).nullable(),
      nextBlock: z.int().min(0),
      finalBlock: z.int().min(0).nullable(),
      trackedPaths: z.int().min(0),
    })
    .optional(),
});

/** One of {@link AdminStatusSchema}. */
export type AdminStatus = z.infer<typeof AdminStatusSchema>;
