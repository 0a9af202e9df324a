// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FixtureZErc20Base} from "./FixtureZErc20Base.sol";

/// @title FixtureZErc20V1
/// @notice Local stand-in for the zERC20 v1 token: 18 decimals, no EIP-2612 permit, the hash chain without
///         `from` (`sha256(H || to || value) mod 2^248`), and a `Teleport(to, value)` event on every teleport
///         mint, as the v1 token emits beside the verifier's own.
contract FixtureZErc20V1 is FixtureZErc20Base {
    /// @notice Emitted by {teleport} after the mint.
    event Teleport(address indexed to, uint256 value);

    /// @param name_ Token name.
    /// @param symbol_ Token symbol.
    /// @param owner_ Account that sets the minter and the verifier.
    constructor(string memory name_, string memory symbol_, address owner_) FixtureZErc20Base(name_, symbol_, 18, owner_) {}

    function _afterTeleport(address to, uint256 value) internal override {
        emit Teleport(to, value);
    }

    function _nextHashChain(uint256 previous, address, address to, uint256 value) internal pure override returns (uint256) {
        return uint256(sha256(abi.encodePacked(previous, to, value))) & MAX_VALUE;
    }
}
