/**
 * The proof-verifier contracts the zERC20 verifier calls besides the Groth16 one (whose ABI is in
 * `@svc/scheme`): the Nova decider verifiers of batch withdrawals and of transfer roots, with the published
 * selectors (`0x76fe87c2`, `0xbd70b10d`), and the reads every fixture proof verifier adds (its signer and
 * circuit tag).
 */
import { parseAbi } from "viem";

/** Decider verifier of a batch withdrawal: the 34-word proof `teleport` takes. */
export const withdrawDeciderVerifierAbi = parseAbi(["function verifyOpaqueNovaProof(uint256[34] proof) view returns (bool)"]);

/** Decider verifier of a transfer root: the 32-word proof `proveTransferRoot` takes. */
export const rootDeciderVerifierAbi = parseAbi(["function verifyOpaqueNovaProof(uint256[32] proof) view returns (bool)"]);

/** What every fixture proof verifier exposes: the key it accepts and `keccak256(<circuit name>)`. */
export const fixtureProofSignerAbi = parseAbi(["function signer() view returns (address)", "function circuit() view returns (bytes32)"]);
