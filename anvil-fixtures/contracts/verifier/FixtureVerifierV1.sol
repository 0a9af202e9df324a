// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FixtureVerifierBase} from "./FixtureVerifierBase.sol";

/// @title FixtureVerifierV1
/// @notice Local stand-in for the zERC20 v1 verifier: anyone may prove roots, a mint emits the two-field
///         `Teleport(to, value)`, and a paused verifier reverts with the string "Pausable: paused" (v1 builds on
///         OpenZeppelin 4, whose Pausable reverts with that string).
contract FixtureVerifierV1 is FixtureVerifierBase {
    /// @notice Emitted per teleport with the amount actually minted (the difference).
    event Teleport(address indexed to, uint256 value);

    /// @param token_ The zERC20 token.
    /// @param hub_ The fixture hub.
    /// @param hubEid_ The hub chain's LayerZero endpoint id.
    /// @param singleVerifier_ Groth16 verifier of single teleports.
    /// @param localDeciderVerifier_ Decider verifier of batch teleports over local roots.
    /// @param globalDeciderVerifier_ Decider verifier of batch teleports over global roots.
    /// @param rootDeciderVerifier_ Decider verifier of transfer-root proofs.
    /// @param emptyRoot Root of the empty height-40 transfer tree, stored at index 0.
    /// @param owner_ Account that may pause and set global roots.
    constructor(
        address token_,
        address hub_,
        uint32 hubEid_,
        address singleVerifier_,
        address localDeciderVerifier_,
        address globalDeciderVerifier_,
        address rootDeciderVerifier_,
        uint256 emptyRoot,
        address owner_
    )
        FixtureVerifierBase(
            token_, hub_, hubEid_, singleVerifier_, localDeciderVerifier_, globalDeciderVerifier_, rootDeciderVerifier_, emptyRoot, owner_
        )
    {}

    function _payOut(bool, uint64, GeneralRecipient calldata gr, Claim memory, uint256 amount) internal override {
        address to = _recipientAddress(gr);
        token.teleport(to, amount);
        emit Teleport(to, amount);
    }

    function _requireNotPaused() internal view override {
        if (paused()) revert("Pausable: paused");
    }

    function _requirePaused() internal view override {
        if (!paused()) revert("Pausable: not paused");
    }
}
