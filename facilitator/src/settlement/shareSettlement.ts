/**
 * `/verify` and `/settle` of one instance among several on one database. Before either runs, the instance
 * catches up the shared journal and fetches the challenge if another instance issued it, so the settlement
 * core sees what every instance wrote. A settle then takes the payment's database claim: two instances
 * settling one payment at once never both reach the chain (the second answers `pending_burn` while the first
 * runs, and the first's answer once it is journaled). A settle that ends accepted makes its claim permanent;
 * any other outcome lets go of it, because everything it did before an irreversible step is journaled and
 * the next settle, on any instance, follows it from there. A crashed instance's claim passes on after its
 * lease. The database going away mid-way answers `storage_unavailable` (the payer re-sends the same payload),
 * never an acceptance: a settle is accepted only once its `accepted` record is in the database.
 */
import { PENDING_BURN, STORAGE_UNAVAILABLE, type ClassifiedFacilitatorBody, type Network, type SettleResponse, type VerifyResponse } from "@svc/scheme";
import type { Hex } from "viem";
import type { ChallengeStore } from "../challenges/challengeStore.js";
import { StorageUnavailableError } from "../storage/errors.js";
import type { ChallengeStorePort, SettleClaimPort } from "../storage/storagePorts.js";
import type { SettlementService } from "./createSettlementService.js";
import type { SettlementBook } from "./settlementBook.js";

/** What a shared instance's settlement adds to the single-process core. */
export type ShareSettlementParameters = {
  settlement: SettlementService;
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

  // An open intent may be another instance's settle in flight, which the start-up sweep cannot tell from a
  // crashed one without its claim: here an interrupted permit settle completes on the payer's re-send instead.
  return { verify, settle, reconcileIntents: async () => 0, inflight: settlement.inflight };
}

// Rethrows anything but the database being unavailable: that one becomes the caller's `storage_unavailable`.
function ignoreStorageUnavailable(error: unknown): void {
  if (!(error instanceof StorageUnavailableError)) throw error;
}
