/** Errors of deploying the local zERC20 world and the product contracts. */
import type { Address, Hash } from "viem";
import { BaseError } from "../errors.js";

/** A deployment or wiring transaction was mined but reverted. */
/** A deployment step's transaction was not mined within the deadline: whether the node still holds it says why. */
export class DeploymentTransactionNotMinedError extends BaseError {
  override name = "DeploymentTransactionNotMinedError";
  /** Which step waited, e.g. `deploy Verifier`. */
  readonly step: string;
  /** The transaction that was not mined. */
  readonly transactionHash: Hash;

  constructor(step: string, transactionHash: Hash, { timeoutMs, knownToNode }: { timeoutMs: number; knownToNode: boolean }) {
    super(
      `Deployment step "${step}" was not mined within ${timeoutMs} ms (transaction ${transactionHash}, ${knownToNode ? "still pending on the node" : "unknown to the node"}).`,
    );
    this.step = step;
    this.transactionHash = transactionHash;
  }
}

export class DeploymentTransactionFailedError extends BaseError {
  override name = "DeploymentTransactionFailedError";
  /** Which step failed, e.g. `deploy Verifier` or `mint payer`. */
  readonly step: string;
  /** The reverted transaction. */
  readonly transactionHash: Hash;

  constructor(step: string, transactionHash: Hash) {
    super(`Deployment step "${step}" reverted (transaction ${transactionHash}).`);
    this.step = step;
    this.transactionHash = transactionHash;
  }
}

/** A contract landed at another address than predicted from the deployer's nonce. */
export class DeploymentAddressMismatchError extends BaseError {
  override name = "DeploymentAddressMismatchError";
  /** Which deployment moved. */
  readonly step: string;

  constructor(step: string, expected: Address, actual: Address | null | undefined) {
    super(`Deployment step "${step}" created ${actual ?? "no contract"}, expected ${expected}.`, {
      metaMessages: ["Another transaction from the deployer probably ran concurrently."],
    });
    this.step = step;
  }
}

/** A deployment option is out of range. */
export class InvalidDeploymentParameterError extends BaseError {
  override name = "InvalidDeploymentParameterError";
  /** The offending option. */
  readonly parameter: string;

  constructor(parameter: string, reason: string) {
    super(`Invalid deployment option ${parameter}: ${reason}.`);
    this.parameter = parameter;
  }
}
