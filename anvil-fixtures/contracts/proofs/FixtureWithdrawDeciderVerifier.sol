// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FixtureProofSignature} from "./FixtureProofSignature.sol";
import {IWithdrawDeciderVerifier} from "./IWithdrawDeciderVerifier.sol";

/// @title FixtureWithdrawDeciderVerifier
/// @notice Replaces a batch-withdrawal decider verifier on the local chain only: the fixture signature sits in
///         words 9..11 (`r, s, v`, where the real proof starts its commitments) and covers words 0..8, the
///         public initial and final states, the way `signFixtureDeciderWithdrawProof` lays it.
contract FixtureWithdrawDeciderVerifier is FixtureProofSignature, IWithdrawDeciderVerifier {
    uint256 private constant PUBLIC_WORDS = 9;

    /// @param signer_ Address of the published fixture prover key.
    /// @param circuit_ `keccak256("withdraw_local")` or `keccak256("withdraw_global")`.
    constructor(address signer_, bytes32 circuit_) FixtureProofSignature(signer_, circuit_) {}

    /// @inheritdoc IWithdrawDeciderVerifier
    function verifyOpaqueNovaProof(uint256[34] calldata proof) external view override returns (bool) {
        uint256[] memory words = new uint256[](PUBLIC_WORDS);
        for (uint256 i = 0; i < PUBLIC_WORDS; i++) {
            words[i] = proof[i];
        }
        return _signedByFixtureKey(words, proof[PUBLIC_WORDS], proof[PUBLIC_WORDS + 1], proof[PUBLIC_WORDS + 2]);
    }
}
