// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {FixtureVerifierBase} from "./FixtureVerifierBase.sol";

/// @title FixtureVerifierV2
/// @notice Local stand-in for the zERC20 v2 verifier: only allow-listed provers prove roots, a mint emits the
///         six-field `Teleport` carrying the general recipient, a paused verifier reverts with `EnforcedPause()`,
///         and the relayer-fee overloads pay a fee the recipient signed (EIP-712 domain `{"Verifier", "1"}`) out of
///         the minted difference to the caller.
contract FixtureVerifierV2 is FixtureVerifierBase, EIP712 {
    /// @notice What the recipient authorizes a relayer to take, and its signature.
    struct RelayerFee {
        uint256 relayerFee;
        uint256 maxFee;
        uint64 deadline;
        bytes signature;
    }

    /// @notice keccak256 of the EIP-712 RelayerFeeAuthorization type.
    bytes32 public constant RELAYER_FEE_AUTHORIZATION_TYPEHASH =
        keccak256("RelayerFeeAuthorization(uint256 recipientHash,uint256 totalValue,uint256 maxFee,uint64 deadline)");

    /// @notice Whether `prover` may call {proveTransferRoot}.
    mapping(address prover => bool allowed) public isAllowedProver;

    /// @notice Emitted per plain teleport with the amount actually minted (the difference).
    event Teleport(address indexed to, uint256 value, bool isGlobal, uint64 rootHint, uint256 transferRoot, GeneralRecipient gr);
    /// @notice Emitted per relayer-fee teleport: the difference split between recipient and relayer.
    event TeleportWithRelayerFee(
        address indexed to,
        address indexed relayer,
        uint256 recipientValue,
        uint256 relayerFee,
        bool isGlobal,
        uint64 rootHint,
        uint256 transferRoot,
        GeneralRecipient gr
    );
    /// @notice Emitted when the owner changes the prover allow-list (fixture administration).
    event AllowedProverSet(address indexed prover, bool allowed);

    /// @notice A teleport while paused (OpenZeppelin 5's Pausable error).
    error EnforcedPause();
    /// @notice {deactivateEmergency} while not paused (OpenZeppelin 5's Pausable error).
    error ExpectedPause();
    /// @notice {proveTransferRoot} by an account not on the allow-list.
    error UnauthorizedProver(address prover);
    /// @notice The relayer-fee authorization's deadline has passed (fixture error name).
    error RelayerFeeExpired(uint64 deadline, uint256 nowTimestamp);
    /// @notice The relayer fee exceeds the signed maximum or the minted difference (fixture error name).
    error RelayerFeeTooHigh(uint256 relayerFee, uint256 limit);
    /// @notice The relayer-fee authorization is not signed by the recipient (fixture error name).
    error InvalidRelayerFeeSignature();

    /// @param token_ The zERC20 token.
    /// @param hub_ The fixture hub.
    /// @param hubEid_ The hub chain's LayerZero endpoint id.
    /// @param singleVerifier_ Groth16 verifier of single teleports.
    /// @param localDeciderVerifier_ Decider verifier of batch teleports over local roots.
    /// @param globalDeciderVerifier_ Decider verifier of batch teleports over global roots.
    /// @param rootDeciderVerifier_ Decider verifier of transfer-root proofs.
    /// @param emptyRoot Root of the empty height-40 transfer tree, stored at index 0.
    /// @param owner_ Account that may pause, set global roots and allow provers.
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
        EIP712("Verifier", "1")
    {}

    /// @notice Adds `prover` to or removes it from the allow-list (fixture administration).
    /// @param prover The account.
    /// @param allowed Whether it may prove roots.
    function setAllowedProver(address prover, bool allowed) external onlyOwner {
        isAllowedProver[prover] = allowed;
        emit AllowedProverSet(prover, allowed);
    }

    /// @notice {singleTeleport} that pays the caller `fee.relayerFee` out of the minted difference.
    /// @param isGlobal Whether `rootHint` indexes {globalTransferRoots}.
    /// @param rootHint Index of the root the proof is against.
    /// @param gr The recipient the burn address commits to; `address(gr.recipient)` signs the fee.
    /// @param proof The 352-byte Groth16 proof.
    /// @param fee The fee, the recipient's limits and signature.
    function singleTeleport(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof, RelayerFee calldata fee) external {
        (Claim memory claim, uint256 previous) = _verifySingle(isGlobal, rootHint, gr, proof);
        _payOutWithFee(isGlobal, rootHint, gr, claim, previous, fee);
    }

    /// @notice Batch {teleport} that pays the caller `fee.relayerFee` out of the minted difference.
    /// @param isGlobal Whether `rootHint` indexes {globalTransferRoots}.
    /// @param rootHint Index of the root the proof is against.
    /// @param gr The recipient the burn address commits to; `address(gr.recipient)` signs the fee.
    /// @param proof The `uint256[34]` withdraw decider proof.
    /// @param fee The fee, the recipient's limits and signature.
    function teleport(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof, RelayerFee calldata fee) external {
        (Claim memory claim, uint256 previous) = _verifyBatch(isGlobal, rootHint, gr, proof);
        _payOutWithFee(isGlobal, rootHint, gr, claim, previous, fee);
    }

    function _payOut(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, Claim memory claim, uint256 amount) internal override {
        address to = _recipientAddress(gr);
        token.teleport(to, amount);
        emit Teleport(to, amount, isGlobal, rootHint, claim.transferRoot, gr);
    }

    function _requireNotPaused() internal view override {
        if (paused()) revert EnforcedPause();
    }

    function _requirePaused() internal view override {
        if (!paused()) revert ExpectedPause();
    }

    function _authorizeProver(address caller) internal view override {
        if (!isAllowedProver[caller]) revert UnauthorizedProver(caller);
    }

    function _payOutWithFee(
        bool isGlobal,
        uint64 rootHint,
        GeneralRecipient calldata gr,
        Claim memory claim,
        uint256 previous,
        RelayerFee calldata fee
    ) private {
        address to = _recipientAddress(gr);
        uint256 amount = claim.value - previous;
        _checkRelayerFee(to, claim, amount, fee);
        _record(claim, previous);
        uint256 recipientValue = amount - fee.relayerFee;
        // No zero mints: each would still index a transfer of 0 into the tree.
        if (recipientValue > 0) token.teleport(to, recipientValue);
        if (fee.relayerFee > 0) token.teleport(msg.sender, fee.relayerFee);
        emit TeleportWithRelayerFee(to, msg.sender, recipientValue, fee.relayerFee, isGlobal, rootHint, claim.transferRoot, gr);
    }

    /// @dev The recipient's authorization holds now, is signed by the recipient, and covers `fee.relayerFee`,
    ///      which may not exceed the signed maximum nor the difference being minted.
    function _checkRelayerFee(address recipient, Claim memory claim, uint256 amount, RelayerFee calldata fee) private view {
        if (block.timestamp > fee.deadline) revert RelayerFeeExpired(fee.deadline, block.timestamp);
        bytes32 digest =
            _hashTypedDataV4(keccak256(abi.encode(RELAYER_FEE_AUTHORIZATION_TYPEHASH, claim.recipientHash, claim.value, fee.maxFee, fee.deadline)));
        if (!SignatureChecker.isValidSignatureNow(recipient, digest, fee.signature)) revert InvalidRelayerFeeSignature();
        uint256 limit = fee.maxFee < amount ? fee.maxFee : amount;
        if (fee.relayerFee > limit) revert RelayerFeeTooHigh(fee.relayerFee, limit);
    }
}
