// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {IProofVerifier} from "./IProofVerifier.sol";

/// @title FixtureProofVerifier
/// @notice Replaces a Groth16 / Nova decider verifier on the local chain only: a "proof" is accepted when it
///         is an EIP-191 personal-sign by the published fixture key over
///         `keccak256(abi.encode(circuit, block.chainid, publicInputs))`, where `circuit` is
///         `keccak256(<circuit name>)`. This is the digest `fixtureProofDigest` in the scheme package computes.
/// @dev One instance is deployed per circuit, so a proof signed for one circuit (say, a root proof) is
///      rejected by every other; binding the chain id keeps a proof from replaying on another chain.
contract FixtureProofVerifier is IProofVerifier {
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

    /// @notice True only if `signature` is the fixture key's personal-sign over this circuit, this chain and
    ///         exactly `publicInputs`; malformed signatures return false instead of reverting.
    /// @param publicInputs The circuit's public inputs.
    /// @param signature 65-byte `r, s, v` signature.
    /// @return Whether the proof is valid.
    function verifyProof(uint256[] calldata publicInputs, bytes calldata signature)
        external
        view
        override
        returns (bool)
    {
        bytes32 digest = keccak256(abi.encode(circuit, block.chainid, publicInputs));
        (address recovered, ECDSA.RecoverError recoverError,) =
            ECDSA.tryRecover(MessageHashUtils.toEthSignedMessageHash(digest), signature);
        return recoverError == ECDSA.RecoverError.NoError && recovered == signer;
    }
}
