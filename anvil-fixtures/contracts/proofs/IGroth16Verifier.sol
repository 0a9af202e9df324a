// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IGroth16Verifier
/// @notice The Groth16 verifier of the single-teleport circuit, as the zERC20 verifier calls it.
interface IGroth16Verifier {
    /// @notice Whether `(a, b, c)` proves the circuit over `publicInputs` = `[transferRoot, R, value - delta]`.
    function verifyProof(uint256[2] calldata a, uint256[2][2] calldata b, uint256[2] calldata c, uint256[3] calldata publicInputs)
        external
        view
        returns (bool);
}
