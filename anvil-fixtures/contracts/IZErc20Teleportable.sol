// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IZErc20Teleportable
/// @notice The part of the zERC20 token the Verifier uses: the indexed hash chain and the teleport mint.
interface IZErc20Teleportable {
    /// @notice Number of balance changes so far.
    /// @return The index the next indexed transfer will carry.
    function index() external view returns (uint256);

    /// @notice Running 248-bit hash chain over every balance change so far.
    /// @return The current hash chain.
    function hashChain() external view returns (uint256);

    /// @notice Mints `value` to `to`; only the verifier may call it.
    /// @param to Recipient.
    /// @param value Amount in base units.
    function teleport(address to, uint256 value) external;
}
