/** Typed access to the artifacts of the contracts the local stack deploys. */
import type { ContractArtifact } from "./artifactCache.js";
import { compileContracts, type CompileContractsParameters } from "./compileContracts.js";
import { MissingArtifactError } from "./errors.js";

/** Every contract the local stack deploys, product and fixture alike, both protocol versions. */
export const DEPLOYABLE_CONTRACT_NAMES = [
  "PermitBurner",
  "FeeSplitter",
  "FixtureZErc20V1",
  "FixtureZErc20V2",
  "FixtureVerifierV1",
  "FixtureVerifierV2",
  "FixtureGroth16Verifier",
  "FixtureWithdrawDeciderVerifier",
  "FixtureRootDeciderVerifier",
  "FixtureHub",
  "FixtureUsdc3009",
] as const;

/** Name of a contract the local stack deploys. */
export type DeployableContractName = (typeof DEPLOYABLE_CONTRACT_NAMES)[number];

/** ABI and creation bytecode per deployable contract. */
export type LoadArtifactsReturnType = Record<DeployableContractName, ContractArtifact>;

/**
 * Compiles (or reads from cache) and returns the artifact of every deployable contract.
 * @example
 * const { FixtureVerifierV2 } = await loadArtifacts();
 * await walletClient.deployContract({ abi: FixtureVerifierV2.abi, bytecode: FixtureVerifierV2.bytecode, args });
 */
export async function loadArtifacts(parameters: CompileContractsParameters = {}): Promise<LoadArtifactsReturnType> {
  const { artifacts } = await compileContracts(parameters);
  const pick = (name: DeployableContractName): ContractArtifact => {
    const artifact = artifacts[name];
    // Interfaces and abstract contracts compile to empty bytecode; a deployable name resolving to one is as good as missing.
    if (artifact === undefined || artifact.bytecode === "0x") throw new MissingArtifactError(name);
    return artifact;
  };
  return {
    PermitBurner: pick("PermitBurner"),
    FeeSplitter: pick("FeeSplitter"),
    FixtureZErc20V1: pick("FixtureZErc20V1"),
    FixtureZErc20V2: pick("FixtureZErc20V2"),
    FixtureVerifierV1: pick("FixtureVerifierV1"),
    FixtureVerifierV2: pick("FixtureVerifierV2"),
    FixtureGroth16Verifier: pick("FixtureGroth16Verifier"),
    FixtureWithdrawDeciderVerifier: pick("FixtureWithdrawDeciderVerifier"),
    FixtureRootDeciderVerifier: pick("FixtureRootDeciderVerifier"),
    FixtureHub: pick("FixtureHub"),
    FixtureUsdc3009: pick("FixtureUsdc3009"),
  };
}
