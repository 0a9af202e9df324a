/**
 * The ports the facilitator's shared state sits behind. Two adapters implement them: the embedded one
 * (memory plus the fsynced JSONL journal, one process, nothing installed) and PostgreSQL (several instances
 * on one database). Every guarantee that must hold across instances (one settle per payment, one finalize
 * owner per payment, no relayer nonce handed out twice, one rate-limit count) is a method here, so the
 * PostgreSQL adapter can give it with a row lock, a unique claim or a `SKIP LOCKED` lease instead of an
 * in-process lock.
 */
import type { ChainIdentity } from "../chain/chainIdentity.js";
import type { RelayNoncePort } from "../chain/relayNoncePort.js";
import type { Address, Hex } from "viem";
import type { BurnAddressStockBinding, BurnAddressStockStore } from "../challenges/burnAddressStock.js";
import type { ChallengeRecord } from "../challenges/challengeRecord.js";
import type { RateLimitDecision } from "../rateLimits/slidingWindowRateLimiter.js";
import type { PaymentHistoryStore } from "../history/record/paymentHistoryStore.js";
import type { JournalRecord } from "../journal/journalRecord.js";

/**
 * Issued challenges, visible to every instance once `put` resolves. Each adapter encodes them in its own form
 * (journal/journaledChallenge.ts), which leaves the burn secret out: a challenge read back has `burn:
 * undefined`, and the secret is re-derived from the seed and the nonce when the mint needs it.
 */
export type ChallengeStorePort = {
  /** Records an issued challenge durably, before the offer is returned; its burn secret is not stored. */
  put(challenge: ChallengeRecord): Promise<void>;
  get(challengeNonce: Hex): Promise<ChallengeRecord | undefined>;
  /** The challenge whose one-time burn address is `payTo`. */
  findByPayTo(payTo: Address): Promise<ChallengeRecord | undefined>;
};

/** The settlement journal: records appended durably, then folded by every reader in one order. */
export type JournalPort = {
  /** Resolves once `record` is durable; the caller applies it to its book afterwards. */
  append(record: JournalRecord): Promise<void>;
  /** Records appended after `cursor` (from the start when omitted) in append order, and the cursor to pass next. */
  readSince(cursor?: bigint): Promise<{ records: JournalRecord[]; cursor: bigint }>;
  /**
   * Archives the records of closed payments past retention under the adapter's compaction policy
   * (journal/planCompaction.ts); resolves to how many records left the journal (0 without a policy). Each
   * adapter also runs it by itself every `COMPACT_EVERY_APPENDS` appends.
   */
  compact(): Promise<number>;
};

/** Who may settle one payment right now: a unique claim with a lease, so two instances never burn twice. */
export type SettleClaimPort = {
  /** True when `owner` now holds the claim: it was free, its lease ran out, or `owner` held it already. */
  claim(challengeNonce: Hex, owner: string, leaseMs: number): Promise<boolean>;
  /** Lets go of a claim `owner` holds (the settle failed before anything reached the chain). */
  release(challengeNonce: Hex, owner: string): Promise<void>;
  /** Makes `owner`'s claim permanent: the payment is accepted, nobody settles it again. */
  complete(challengeNonce: Hex, owner: string): Promise<boolean>;
};

/** Accepted payments waiting for their mint, handed out under leases. */
export type FinalizeQueuePort = {
  /** Queues an accepted payment (idempotent). */
  enqueue(challengeNonce: Hex): Promise<void>;
  /** Leases up to `limit` queued payments nobody else holds; a crashed owner's work returns after its lease. */
  lease(owner: string, limit: number, leaseMs: number): Promise<Hex[]>;
  /**
   * Hands back a payment `owner` leased but could not finish yet (waiting), so the next pass may take it at once;
   * it goes to the back of the queue, behind the payments no pass has tried since.
   */
  release(challengeNonce: Hex, owner: string): Promise<void>;
  /** Removes a payment `owner` leased from the queue (minted or failed for good); false when the lease was lost. */
  complete(challengeNonce: Hex, owner: string): Promise<boolean>;
};

/** Request counters shared by every instance: a sliding window per key. */
export type RateLimitPort = {
  take(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
};

/** How readiness reports one storage adapter. */
export type StorageReadinessFacts = {
  detail: Record<string, string>;
  /** `not_writable` for a journal file this process can no longer write, `unreachable` for a database. */
  failure: "not_writable" | "unreachable";
};

/** The chain the stored state belongs to (see chain/chainIdentity.ts). */
export type ChainIdentityPort = {
  /** Records `identity` when none is recorded; resolves to the recorded one, for the caller to compare. */
  claim: (identity: ChainIdentity) => Promise<ChainIdentity>;
};

/**
 * The transfer-tree follower's saved state (witnesses/followerStateCodec.ts encodes it; the adapters store the
 * text as it is), one per `binding` (the chain and token it follows). Saves only move forward: a state holding
 * fewer leaves than the saved one is not written, so two instances sharing one database never take it back.
 */
export type WitnessStatePort = {
  load(binding: string): Promise<string | undefined>;
  /** Saves `body`, a state of `leaves` appended leaves; false (nothing written) when the saved one holds more. */
  save(binding: string, leaves: bigint, body: string): Promise<boolean>;
};

/** All ports of one storage adapter. */
export type FacilitatorStorage = {
  /** `embedded` or `postgres`, for logs and readiness. */
  readonly kind: "embedded" | "postgres";
  /** Where the state lives, for messages: "the journal <path>", "the [storage] database". */
  readonly location: string;
  /** What `/readyz` says of this store: public facts only (a redacted URL), and its reason when `ping` fails. */
  readonly readiness: StorageReadinessFacts;
  /** The torn last journal line cut off at open (the embedded file journal), if any. */
  readonly tornJournalLine?: { lineNumber: number; bytes: number } | undefined;
  readonly challenges: ChallengeStorePort;
  readonly journal: JournalPort;
  readonly settleClaims: SettleClaimPort;
  readonly finalizeQueue: FinalizeQueuePort;
  readonly relayNonces: RelayNoncePort;
  readonly rateLimits: RateLimitPort;
  readonly chainIdentity: ChainIdentityPort;
  /** The followed transfer tree: a file beside the journal (memory with `journal = "none"`), or a database row. */
  readonly witnessState: WitnessStatePort;
  /**
   * The payment history, opened only when history is configured: the `PAYMENT_HISTORY_PATH` file for the
   * embedded adapter, the database's history log every instance shares for PostgreSQL.
   */
  readonly history: PaymentHistoryStore;
  /** Opens the burn-address stock of this instance (`owner`) for `binding`; none without a journal. */
  openBurnAddressStock(binding: BurnAddressStockBinding, owner: string): Promise<BurnAddressStockStore | undefined>;
  /** Resolves when the store answers; throws otherwise (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
};
