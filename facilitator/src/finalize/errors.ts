/** Errors of the finalize loop and its prover port. */
import { BaseError } from "../errors/base.js";

/** The indexer could not be reached or answered something unusable; the pass backs off and retries. */
export class IndexerRequestError extends BaseError {
  override name = "IndexerRequestError";
  constructor({ path, status, cause }: { path: string; status?: number; cause?: unknown }) {
    super(`indexer request ${path.split("?")[0]} failed${status === undefined ? "" : ` with HTTP ${status}`}`, { cause });
  }
}

/** The decider-prover could not be reached, refused the job, or failed it. */
export class DeciderJobError extends BaseError {
  override name = "DeciderJobError";
  constructor({ jobId, reason, cause }: { jobId: string; reason: string; cause?: unknown }) {
    super(`decider job ${jobId} failed: ${reason}`, { cause });
  }
}

/** The fixture prover exists only under profile `local` on chain 31337. */
export class FixtureProverRefusedError extends BaseError {
  override name = "FixtureProverRefusedError";
  constructor({ profile, chainId }: { profile: string | undefined; chainId: number }) {
    super(`the fixture prover runs only under profile local on chain 31337 (profile ${profile ?? "(unset)"}, chain ${chainId})`, {
      details: "a real deployment needs a Groth16/Nova prover adapter for the prover port",
    });
  }
}

/** The withdraw statement a proof was asked for is false; the fixture prover refuses to sign it. */
export class FalseWithdrawStatementError extends BaseError {
  override name = "FalseWithdrawStatementError";
  constructor(reason: string) {
    super(`refusing to prove a false withdraw statement: ${reason}`);
  }
}
