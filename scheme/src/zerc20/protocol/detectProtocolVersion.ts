/**
 * Which zERC20 version a deployment runs, read from what it answers (no event history needed): only a v2
 * verifier has the prover allow-list (`isAllowedProver`), only a v2 token the token-wide `totalTeleported()`;
 * both versions' verifiers answer `totalTeleported(uint256)`. A contract that answers none of these is no
 * zERC20 verifier at all. Part of the seam: the version-specific functions it probes are named only here.
 */
import { zeroAddress, type Address, type PublicClient } from "viem";
import { zerc20TokenAbi, zerc20VerifierAbi, zerc20VerifierAbiV2 } from "../abis.js";
import type { ProtocolVersion } from "./protocolVersion.js";

/** What the probes saw. */
export type DeployedProtocol = {
  /** The version the deployment answers as; `undefined` when the verifier answers as no zERC20 verifier. */
  version: ProtocolVersion | undefined;
  /** Which of the distinguishing calls answered, for the operator's report. */
  answered: { verifierTotalTeleported: boolean; isAllowedProver: boolean; tokenTotalTeleported: boolean };
};

const answers = (call: Promise<unknown>): Promise<boolean> =>
  call.then(
    () => true,
    () => false,
  );

/**
 * Probes `verifier` and `token` with read calls. A transport failure reads as "did not answer", so call it
 * once the RPC is known to answer (the chain-id check comes first).
 */
export async function detectProtocolVersion(
  client: Pick<PublicClient, "readContract">,
  deployment: { token: Address; verifier: Address },
): Promise<DeployedProtocol> {
  const [verifierTotalTeleported, isAllowedProver, tokenTotalTeleported] = await Promise.all([
    answers(client.readContract({ address: deployment.verifier, abi: zerc20VerifierAbi, functionName: "totalTeleported", args: [0n] })),
    answers(client.readContract({ address: deployment.verifier, abi: zerc20VerifierAbiV2, functionName: "isAllowedProver", args: [zeroAddress] })),
    answers(client.readContract({ address: deployment.token, abi: zerc20TokenAbi, functionName: "totalTeleported" })),
  ]);
  const version = !verifierTotalTeleported ? undefined : isAllowedProver || tokenTotalTeleported ? "zerc20-v2" : "zerc20-v1";
  return { version, answered: { verifierTotalTeleported, isAllowedProver, tokenTotalTeleported } };
}
