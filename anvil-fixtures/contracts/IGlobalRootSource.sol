// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IGlobalRootSource
/// @notice Where the Verifier reads aggregated global roots for the global teleport path (the Hub).
interface IGlobalRootSource {
    /// @notice The global root published at `index`, or zero if none.
    /// @param index Global root index.
    /// @return The root.
    function globalRoots(uint64 index) external view returns (uint256);
}
