import { randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";

import { describeIssues } from "@svc/scheme";
import { z } from "zod";

import { atomicWriteFile } from "./atomicWriteFile.js";
import { LedgerCorruptError, LedgerEntryNotFoundError, LedgerTransitionError, OfferAlreadyUsedError } from "./errors.js";
import { type LedgerEntry, type LedgerFile, LedgerFileSchema, type LedgerOffer, type PaymentStatus } from "./ledgerEntry.js";
import { entryHost, limitUsage, SPEND_LIMIT_NAMES, type SpendLimitName } from "./spendLimits.js";
import { spentOn } from "./summarizeSpend.js";
import { type FileLockOptions, withFileLock } from "./withFileLock.js";

/** File name of the ledger in the state folder. */
export const LEDGER_FILE = "ledger.json";

/** File name of the ledger's lock in the state folder. */
export const LEDGER_LOCK_FILE = "ledger.lock";

/**
 * What `reserve` needs: the offer's identity and amount (a projection of the scheme's `Offer`, amount as a
 * bigint), where and how the payment will be sent, and the MCP session asking, when one is.
 */
export type ReserveInput = LedgerOffer & Pick<LedgerEntry, "url" | "mode" | "network" | "request" | "mcpSession">;

/** The limits `reserve` enforces under the lock, in base units of the offer's token; an absent one is no limit. */
export type ReserveLimits = Partial<Record<SpendLimitName, bigint | undefined>>;

/**
 * The answer of `reserve`: the new entry, or the first limit that left no room, with what it had counted
 * (`spentBefore`) and when its oldest counted entry leaves its window (epoch ms; undefined for a lifetime limit).
 */
export type ReserveResult =
  | { kind: "reserved"; entry: LedgerEntry; spentBefore: bigint }
  | { kind: "over-cap"; limit: SpendLimitName; spentBefore: bigint; cap: bigint; freesAt?: number | undefined };

/** Options of a `Ledger`: the lock's timing, and the clock reservations are stamped and windows measured with. */
export type LedgerOptions = FileLockOptions & { now?: (() => number) | undefined };

/** How a payment ended, as recorded by `recordOutcome`. */
export type OutcomeUpdate = {
  status: Exclude<PaymentStatus, "reserved" | "signed">;
  transaction?: string | undefined;
  errorReason?: string | undefined;
  message?: string | undefined;
};

/** Statuses each status may move to. `unknown` only resolves to `settled`: a later failure cannot undo a burn. */
const TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  reserved: ["signed", "unknown", "failed", "released"],
  signed: ["unknown", "settled", "failed", "released"],
  unknown: ["unknown", "settled"],
  settled: [],
  failed: [],
  released: [],
};

/**
 * The spend ledger in the state folder (`ledger.json`), shared by every agent process of one user. Each
 * change is a read-modify-write under `ledger.lock`, written by atomic rename with fsync, so concurrent
 * processes never lose an update and a crash never leaves half a file. Spend is reserved before anything is
 * signed, and the signed header is stored before it is sent.
 *
 * @example
 * const ledger = new Ledger(policy.stateDir);
 * const result = await ledger.reserve(input, { maxTotal: 10n ** 16n });
 */
export class Ledger {
  /** The state folder. */
  readonly stateDir: string;
  private readonly lockOptions: FileLockOptions;
  private readonly now: () => number;

  constructor(stateDir: string, options: LedgerOptions = {}) {
    const { now, ...lockOptions } = options;
    this.stateDir = stateDir;
    this.lockOptions = lockOptions;
    this.now = now ?? Date.now;
  }

  /** Path of `ledger.json`. */
  get path(): string {
    return join(this.stateDir, LEDGER_FILE);
  }

  /** Every entry, oldest first. Reads without the lock: writes replace the file atomically. */
  async entries(): Promise<LedgerEntry[]> {
    return (await this.readFile()).entries;
  }

  /** One entry by id; throws `LedgerEntryNotFoundError`. */
  async get(id: string): Promise<LedgerEntry> {
    const entry = (await this.entries()).find((candidate) => candidate.id === id);
    if (entry === undefined) throw new LedgerEntryNotFoundError({ id });
    return entry;
  }

  /**
   * Reserves `input.amount` on its network and token if, for every limit set in `limits`, the spend it counts
   * (see `limitUsage`) plus the amount stays within it. Throws `OfferAlreadyUsedError` when the offer was
   * already taken.
   */
  async reserve(input: ReserveInput, limits: ReserveLimits): Promise<ReserveResult> {
    return this.update<ReserveResult>((file) => {
      const existing = file.entries.find(
        (entry) => entry.challengeNonce.toLowerCase() === input.challengeNonce.toLowerCase() && entry.network === input.network,
      );
      if (existing !== undefined) throw new OfferAlreadyUsedError({ existingId: existing.id });
      const at = this.now();
      const scope = { network: input.network, asset: input.asset, host: entryHost(input.url), mcpSession: input.mcpSession };
      for (const limit of SPEND_LIMIT_NAMES) {
        const cap = limits[limit];
        if (cap === undefined) continue;
        const usage = limitUsage(file.entries, limit, scope, at);
        if (usage.used + input.amount > cap) return { file, result: { kind: "over-cap", limit, spentBefore: usage.used, cap, freesAt: usage.freesAt } };
      }
      const spentBefore = spentOn(file.entries, input.network, input.asset);
      const now = new Date(at).toISOString();
      const entry: LedgerEntry = {
        url: input.url,
        mode: input.mode,
        network: input.network,
        asset: input.asset,
        amount: input.amount,
        payTo: input.payTo,
        challengeNonce: input.challengeNonce,
        expiresAt: input.expiresAt,
        ...(input.request === undefined ? {} : { request: input.request }),
        ...(input.mcpSession === undefined ? {} : { mcpSession: input.mcpSession }),
        id: newId(file),
        createdAt: now,
        updatedAt: now,
        status: "reserved",
      };
      return { file: { ...file, entries: [...file.entries, entry] }, result: { kind: "reserved", entry, spentBefore } };
    });
  }

  /** Stores a self-transfer burn's hash before it is broadcast, so a crash still leaves its trace. */
  async recordBurn(id: string, burnTxHash: `0x${string}`): Promise<LedgerEntry> {
    return this.modify(id, (entry) => {
      if (entry.status !== "reserved") throw new LedgerTransitionError({ id, from: entry.status, to: "reserved (burn)" });
      return { ...entry, burnTxHash };
    });
  }

  /**
   * Stores the signed `PAYMENT-SIGNATURE` value (fsynced) and marks the entry `signed`; the caller sends it
   * only after this resolves. Refuses an entry that already holds a header: a payment is never re-signed.
   */
  async recordSigned(id: string, paymentHeader: string): Promise<LedgerEntry> {
    return this.modify(id, (entry) => {
      if (entry.paymentHeader !== undefined || entry.status !== "reserved") {
        throw new LedgerTransitionError({ id, from: entry.status, to: "signed" });
      }
      return { ...entry, status: "signed", paymentHeader };
    });
  }

  /** Records how a payment ended; see `TRANSITIONS` for what each status may become. */
  async recordOutcome(id: string, outcome: OutcomeUpdate): Promise<LedgerEntry> {
    return this.modify(id, (entry) => {
      if (!TRANSITIONS[entry.status].includes(outcome.status)) {
        throw new LedgerTransitionError({ id, from: entry.status, to: outcome.status });
      }
      const next: LedgerEntry = { ...entry, status: outcome.status };
      for (const key of ["transaction", "errorReason", "message"] as const) {
        const value = outcome[key];
        if (value !== undefined) next[key] = value;
        else delete next[key];
      }
      return next;
    });
  }

  private async modify(id: string, change: (entry: LedgerEntry) => LedgerEntry): Promise<LedgerEntry> {
    return this.update((file) => {
      const index = file.entries.findIndex((entry) => entry.id === id);
      const current = file.entries[index];
      if (current === undefined) throw new LedgerEntryNotFoundError({ id });
      const next = { ...change(current), updatedAt: new Date(this.now()).toISOString() };
      const entries = [...file.entries];
      entries[index] = next;
      return { file: { ...file, entries }, result: next };
    });
  }

  private async update<T>(change: (file: LedgerFile) => { file: LedgerFile; result: T }): Promise<T> {
    await mkdir(this.stateDir, { recursive: true, mode: 0o700 });
    return withFileLock(
      join(this.stateDir, LEDGER_LOCK_FILE),
      async () => {
        const before = await this.readFile();
        const { file, result } = change(before);
        if (file !== before) await atomicWriteFile(this.path, `${JSON.stringify(z.encode(LedgerFileSchema, file), null, 2)}\n`);
        return result;
      },
      this.lockOptions,
    );
  }

  private async readFile(): Promise<LedgerFile> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if (error instanceof Error && Reflect.get(error, "code") === "ENOENT") return { version: 1, entries: [] };
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new LedgerCorruptError({ path: this.path, details: "not JSON", cause });
    }
    const parsed = LedgerFileSchema.safeParse(json);
    if (!parsed.success) throw new LedgerCorruptError({ path: this.path, details: describeIssues(parsed.error) });
    return parsed.data;
  }
}

function newId(file: LedgerFile): string {
  for (;;) {
    const id = randomBytes(6).toString("hex");
    if (!file.entries.some((entry) => entry.id === id)) return id;
  }
}
