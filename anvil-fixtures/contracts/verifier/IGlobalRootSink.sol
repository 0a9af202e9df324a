// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IGlobalRootSink
/// @notice Where the fixture hub writes global transfer roots: the verifier's `globalTransferRoots`.
interface IGlobalRootSink {
    /// @notice Stores the global transfer root at `index`.
    function setGlobalTransferRoot(uint64 index, uint256 root) external;
}
