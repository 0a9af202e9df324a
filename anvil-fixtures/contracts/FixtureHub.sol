// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IGlobalRootSink} from "./verifier/IGlobalRootSink.sol";

/// @title FixtureHub
/// @notice Local stand-in for the zERC20 hub, reduced to relaying global roots its owner publishes into the
///         verifier's `globalTransferRoots`.
/// @dev NOT IMPLEMENTED here: the real hub aggregates every chain's proved transfer root into a global tree
///      (Poseidon, height 6) and sends the result to each chain's verifier over LayerZero. The local stack runs
///      one chain, so nothing is aggregated and the global teleport path only works with roots published by hand.
contract FixtureHub is Ownable {
    /// @notice The verifier this hub writes global roots to.
    IGlobalRootSink public immutable verifier;
    /// @notice Highest global index published so far.
    uint64 public latestGlobalIndex;

    /// @notice Emitted for every published root.
    event GlobalRootPublished(uint64 indexed index, uint256 root);

    /// @param owner_ Account that may publish global roots.
    /// @param verifier_ The verifier to write them to.
    constructor(address owner_, address verifier_) Ownable(owner_) {
        verifier = IGlobalRootSink(verifier_);
    }

    /// @notice Publishes (or overwrites) the global root at `index` on the verifier.
    /// @param index Global root index.
    /// @param root The root.
    function publishGlobalRoot(uint64 index, uint256 root) external onlyOwner {
        verifier.setGlobalTransferRoot(index, root);
        if (index > latestGlobalIndex) latestGlobalIndex = index;
        emit GlobalRootPublished(index, root);
    }
}
