// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// @title FixtureProofSignature
/// @notice The local proof system shared by every fixture proof verifier: a proof is accepted when it carries
///         an EIP-191 personal-sign by the published fixture key over
///         `keccak256(abi.encode(circuit, block.chainid, uint256[] publicWords))`, where `circuit` is
///         `keccak256(<circuit name>)`: the digest `fixtureProofDigest` of the scheme package.
/// @dev One instance per circuit, so a proof signed for one circuit is rejected by every other; binding the chain
///      id keeps a proof from replaying on another chain. Each verifier reads the signature `(r, s, v)` from where
///      its real proof carries curve points or SNARK words.
abstract contract FixtureProofSignature {
    /// @notice The fixture key whose signatures count as proofs.
    address public immutable signer;
    /// @notice `keccak256(<circuit name>)` of the circuit this instance stands in for.
    bytes32 public immutable circuit;

    /// @param signer_ Address of the published fixture prover key.
    /// @param circuit_ `keccak256` of the circuit name ("root", "withdraw_single", ...).
    constructor(address signer_, bytes32 circuit_) {
        signer = signer_;
        circuit = circuit_;
    }

    /// @dev Whether `(r, s, v)` is the fixture key's signature over this circuit, this chain and exactly
    ///      `publicWords`; malformed signatures are `false`, never a revert, like a failed pairing check.
    function _signedByFixtureKey(uint256[] memory publicWords, uint256 r, uint256 s, uint256 v) internal view returns (bool) {
        if (v > type(uint8).max) return false;
        bytes32 digest = keccak256(abi.encode(circuit, block.chainid, publicWords));
        (address recovered, ECDSA.RecoverError recoverError,) =
            ECDSA.tryRecover(MessageHashUtils.toEthSignedMessageHash(digest), uint8(v), bytes32(r), bytes32(s));
        return recoverError == ECDSA.RecoverError.NoError && recovered == signer;
    }
}
