// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {FixtureProofSignature} from "./FixtureProofSignature.sol";
import {IGroth16Verifier} from "./IGroth16Verifier.sol";

/// @title FixtureGroth16Verifier
/// @notice Replaces the single-teleport Groth16 verifier on the local chain only, with the same function: the
///         fixture signature sits in the proof points (`a = (r, s)`, `b[0][0] = v`), the way
///         `signFixtureGroth16Proof` lays it, and covers the three public inputs.
contract FixtureGroth16Verifier is FixtureProofSignature, IGroth16Verifier {
    /// @param signer_ Address of the published fixture prover key.
    /// @param circuit_ `keccak256("withdraw_single")`.
    constructor(address signer_, bytes32 circuit_) FixtureProofSignature(signer_, circuit_) {}

    /// @inheritdoc IGroth16Verifier
    function verifyProof(uint256[2] calldata a, uint256[2][2] calldata b, uint256[2] calldata, uint256[3] calldata publicInputs)
        external
        view
        override
        returns (bool)
    {
        uint256[] memory words = new uint256[](3);
        for (uint256 i = 0; i < 3; i++) {
            words[i] = publicInputs[i];
        }
        return _signedByFixtureKey(words, a[0], a[1], b[0][0]);
    }
}
