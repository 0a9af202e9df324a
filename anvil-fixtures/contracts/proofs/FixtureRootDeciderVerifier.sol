// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FixtureProofSignature} from "./FixtureProofSignature.sol";
import {IRootDeciderVerifier} from "./IRootDeciderVerifier.sol";

/// @title FixtureRootDeciderVerifier
/// @notice Replaces the transfer-root decider verifier on the local chain only: the fixture signature sits in
///         words 7..9 (`r, s, v`) and covers words 0..6 (steps, old and new `(index, hash chain, root)`), the
///         way `signFixtureRootProof` lays it.
contract FixtureRootDeciderVerifier is FixtureProofSignature, IRootDeciderVerifier {
    uint256 private constant PUBLIC_WORDS = 7;

    /// @param signer_ Address of the published fixture prover key.
    /// @param circuit_ `keccak256("root")`.
    constructor(address signer_, bytes32 circuit_) FixtureProofSignature(signer_, circuit_) {}

    /// @inheritdoc IRootDeciderVerifier
    function verifyOpaqueNovaProof(uint256[32] calldata proof) external view override returns (bool) {
        uint256[] memory words = new uint256[](PUBLIC_WORDS);
        for (uint256 i = 0; i < PUBLIC_WORDS; i++) {
            words[i] = proof[i];
        }
        return _signedByFixtureKey(words, proof[PUBLIC_WORDS], proof[PUBLIC_WORDS + 1], proof[PUBLIC_WORDS + 2]);
    }
}
