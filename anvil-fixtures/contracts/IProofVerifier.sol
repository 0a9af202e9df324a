// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IProofVerifier
/// @notice What the zERC20 Verifier needs from a proof system: a yes/no over public inputs and proof bytes.
/// @dev Production plugs Groth16 / Nova decider verifiers in here; the local stack plugs FixtureProofVerifier.
interface IProofVerifier {
    /// @notice Whether `proof` proves the circuit's statement over `publicInputs`.
    /// @param publicInputs The circuit's public inputs.
    /// @param proof The proof bytes (for the fixture system: a signature).
    /// @return Whether the proof is valid.
    function verifyProof(uint256[] calldata publicInputs, bytes calldata proof) external view returns (bool);
}
