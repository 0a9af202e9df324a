// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IZErc20Token
/// @notice The part of the zERC20 token the verifier uses: the indexed hash chain and the teleport mint.
interface IZErc20Token {
    /// @notice Number of balance changes so far.
    function index() external view returns (uint256);

    /// @notice Running 248-bit hash chain over every balance change so far.
    function hashChain() external view returns (uint256);

    /// @notice Mints `value` to `to`; only the verifier may call it.
    function teleport(address to, uint256 value) external;
}
