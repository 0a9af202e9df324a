// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IRootDeciderVerifier
/// @notice The Nova decider verifier of a transfer-root proof, as the zERC20 verifier calls it.
interface IRootDeciderVerifier {
    /// @notice Whether the 32-word decider proof (public states in words 0..6, SNARK after) is valid.
    function verifyOpaqueNovaProof(uint256[32] calldata proof) external view returns (bool);
}
