/**
 * `/verify` and `/settle` through the storage, for one instance (the embedded adapter: claims in memory) or
 * several on one database alike. Before either runs, the instance catches up the journal and fetches the
 * challenge if another instance issued it, so the settlement core sees what every instance wrote. A settle then takes the payment's database claim: two instances
 * settling one payment at once never both reach the chain (the second answers `pending_burn` while the first
 * runs, and the first's answer once it is journaled). A settle that ends accepted makes its claim permanent;
 * any other outcome lets go of it, because everything it did before an irreversible step is journaled and
 * the next settle, on any instance, follows it from there. A crashed instance's claim passes on after its
 * lease. The database going away mid-way answers `storage_unavailable` (the payer re-sends the same payload),
 * never an acceptance: a settle is accepted only once its `accepted` record is in the database.
 *
 * The start-up sweep runs under the same claims: an open permit intent is taken over (its journaled relay
 * watched, its burn looked up on-chain) only by the instance that claims it. Another instance's settle in
 * flight holds its claim and is left alone; a crashed instance's intent passes on once its lease runs out,
 * at the latest on the payer's re-send.
 */
import { PENDING_BURN, STORAGE_UNAVAILABLE, type ClassifiedFacilitatorBody, type Network, type SettleResponse, type VerifyResponse } from "@svc/scheme";
import type { Hex } from "viem";
import type { ChallengeStore } from "../challenges/challengeStore.js";
import { StorageUnavailableError } from "../storage/errors.js";
import type { ChallengeStorePort, SettleClaimPort } from "../storage/storagePorts.js";
import type { SettlementCore, SettlementService } from "./createSettlementService.js";
import type { SettlementBook } from "./settlementBook.js";

/** What a shared instance's settlement adds to the single-process core. */
export type ShareSettlementParameters = {
  settlement: SettlementCore;
  /** Folds every journal record any instance appended since the last call. */
  catchUp: () => Promise<unknown>;
  /** The challenges every instance issued. */
  issued: ChallengeStorePort;
  /** This instance's challenge store, which the core reads. */
  store: ChallengeStore;
  book: SettlementBook;
  claims: SettleClaimPort;
  /** This process's claim owner (unique per process). */
  owner: string;
  /** How long a claim outlives a settle that stopped answering (a crashed instance). */
  claimLeaseMs: number;
  network: Network;
};

/** Wraps `settlement` so it settles across instances through the shared storage. */
export function shareSettlement(parameters: ShareSettlementParameters): SettlementService {
  const { settlement, catchUp, issued, store, book, claims, owner, claimLeaseMs } = parameters;

  const prepare = async (challengeNonce: Hex): Promise<void> => {
    await catchUp();
    if (store.get(challengeNonce) !== undefined) return;
    const challenge = await issued.get(challengeNonce);
    if (challenge !== undefined) store.restore(challenge, book.entry(challengeNonce) !== undefined);
  };

  const verifyShared = async (body: ClassifiedFacilitatorBody): Promise<VerifyResponse> => {
    if (body.kind !== "rejected") await prepare(body.payment.payload.challengeNonce);
    return settlement.verify(body);
  };

  const settleShared = async (body: ClassifiedFacilitatorBody): Promise<SettleResponse> => {
    if (body.kind === "rejected") return settlement.settle(body);
    const challengeNonce = body.payment.payload.challengeNonce;
    await prepare(challengeNonce);
    if (!(await claims.claim(challengeNonce, owner, claimLeaseMs))) {
      // Another instance settles it, or settled it: once its outcome is journaled the core answers from the book.
      await catchUp();
      if (book.entry(challengeNonce) !== undefined) return settlement.settle(body);
      // Name the relayed burn when the other instance has journaled it, as the reason table promises.
      return { success: false, errorReason: PENDING_BURN, transaction: book.relay(challengeNonce)?.txHash ?? "", network: parameters.network };
    }
    let response: SettleResponse;
    try {
      response = await settlement.settle(body);
    } catch (error) {
      await claims.release(challengeNonce, owner).catch(() => undefined);
      throw error;
    }
    if (response.success) {
      // The `accepted` record is already in the database: a claim left open only runs out its lease, after
      // which any instance answers this payment from the journal, so the acceptance stands.
      await claims.complete(challengeNonce, owner).catch(ignoreStorageUnavailable);
    } else await claims.release(challengeNonce, owner);
    return response;
  };

  const verify = (body: ClassifiedFacilitatorBody): Promise<VerifyResponse> =>
    verifyShared(body).catch((error: unknown) => {
      ignoreStorageUnavailable(error);
      return { isValid: false, invalidReason: STORAGE_UNAVAILABLE };
    });

  const settle = (body: ClassifiedFacilitatorBody): Promise<SettleResponse> =>
    settleShared(body).catch((error: unknown) => {
      ignoreStorageUnavailable(error);
      return { success: false, errorReason: STORAGE_UNAVAILABLE, transaction: "", network: parameters.network };
    });

  // The open intents this instance claimed at start; the sweep after listening resolves them.
  let resumed: Hex[] = [];

  const resume = async (): Promise<{ claimed: number; left: number }> => {
    await catchUp();
    resumed = [];
    let left = 0;
    for (const intent of book.openIntents()) {
      const challengeNonce = intent.challenge.challengeNonce as Hex;
      if (!(await claims.claim(challengeNonce, owner, claimLeaseMs))) {
        left++;
        continue;
      }
      settlement.adoptRelay(challengeNonce);
      resumed.push(challengeNonce);
    }
    return { claimed: resumed.length, left };
  };

  const reconcileIntents = async (): Promise<number> => {
    let accepted = 0;
    for (const challengeNonce of resumed.splice(0)) {
      // Claimed again to renew the lease; lost meanwhile means another instance follows it now.
      if (!(await claims.claim(challengeNonce, owner, claimLeaseMs))) continue;
      let done = false;
      try {
        done = await settlement.reconcileIntent(challengeNonce);
      } finally {
        if (done) await claims.complete(challengeNonce, owner).catch(ignoreStorageUnavailable);
        else await claims.release(challengeNonce, owner).catch(ignoreStorageUnavailable);
      }
      if (done) accepted++;
    }
    return accepted;
  };

  return { verify, settle, resume, reconcileIntents, inflight: settlement.inflight };
}

// Rethrows anything but the database being unavailable: that one becomes the caller's `storage_unavailable`.
function ignoreStorageUnavailable(error: unknown): void {
  if (!(error instanceof StorageUnavailableError)) throw error;
}
