// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IWithdrawDeciderVerifier
/// @notice The Nova decider verifier of a batch withdrawal, as the zERC20 verifier calls it (one instance for
///         local roots, one for global roots).
interface IWithdrawDeciderVerifier {
    /// @notice Whether the 34-word decider proof (public states in words 0..8, SNARK after) is valid.
    function verifyOpaqueNovaProof(uint256[34] calldata proof) external view returns (bool);
}
