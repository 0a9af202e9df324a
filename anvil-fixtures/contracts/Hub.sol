// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IGlobalRootSource} from "./IGlobalRootSource.sol";

/// @title Hub
/// @notice Local stand-in for the zERC20 Hub, reduced to storage of global roots that the owner publishes.
/// @dev NOT IMPLEMENTED here: the real Hub aggregates every chain's proved transfer root into a global root
///      tree (Poseidon T3, height 6) and relays the result to each chain's verifier. The local stack runs one
///      chain, so nothing is aggregated and the global teleport path only works with roots published by hand.
contract Hub is Ownable, IGlobalRootSource {
    /// @notice Global root per index; zero means none was published.
    mapping(uint64 index => uint256 root) public override globalRoots;
    /// @notice Highest index published so far.
    uint64 public latestGlobalIndex;

    /// @notice Emitted for every published root.
    event GlobalRootPublished(uint64 indexed index, uint256 root);

    /// @notice Zero is reserved for "no root" and cannot be published.
    error ZeroRoot();

    /// @param owner_ Account that may publish global roots.
    constructor(address owner_) Ownable(owner_) {}

    /// @notice Publishes (or overwrites) the global root at `index`.
    /// @param index Global root index.
    /// @param root The root; must be non-zero.
    function publishGlobalRoot(uint64 index, uint256 root) external onlyOwner {
        if (root == 0) revert ZeroRoot();
        globalRoots[index] = root;
        if (index > latestGlobalIndex) latestGlobalIndex = index;
        emit GlobalRootPublished(index, root);
    }
}
