// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {FixtureZErc20Base} from "./FixtureZErc20Base.sol";

/// @title FixtureZErc20V2
/// @notice Local stand-in for the zERC20 v2 token (a LayerZero OFT in production; one chain here): decimals
///         chosen at deployment, EIP-2612 permit over the domain `{name(), "1"}`, the hash chain WITH `from`
///         (`sha256(H || from || to || value) mod 2^248`) and {totalTeleported}, the sum of every teleport
///         mint. The v2 token emits no `Teleport` event; the verifier does.
contract FixtureZErc20V2 is FixtureZErc20Base, ERC20Permit {
    /// @notice Sum of every value the verifier minted through {teleport}.
    uint256 public totalTeleported;

    /// @param name_ Token name, also the EIP-712 domain name of permit.
    /// @param symbol_ Token symbol.
    /// @param decimals_ Token decimals (zUSDC 6, zETH 18).
    /// @param owner_ Account that sets the minter and the verifier.
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address owner_)
        FixtureZErc20Base(name_, symbol_, decimals_, owner_)
        ERC20Permit(name_)
    {}

    /// @inheritdoc FixtureZErc20Base
    function decimals() public view override(ERC20, FixtureZErc20Base) returns (uint8) {
        return FixtureZErc20Base.decimals();
    }

    function _afterTeleport(address, uint256 value) internal override {
        totalTeleported += value;
    }

    function _nextHashChain(uint256 previous, address from, address to, uint256 value) internal pure override returns (uint256) {
        return uint256(sha256(abi.encodePacked(previous, from, to, value))) & MAX_VALUE;
    }

    function _update(address from, address to, uint256 value) internal override(ERC20, FixtureZErc20Base) {
        FixtureZErc20Base._update(from, to, value);
    }
}
