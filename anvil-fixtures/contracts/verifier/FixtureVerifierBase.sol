// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IGroth16Verifier} from "../proofs/IGroth16Verifier.sol";
import {IRootDeciderVerifier} from "../proofs/IRootDeciderVerifier.sol";
import {IWithdrawDeciderVerifier} from "../proofs/IWithdrawDeciderVerifier.sol";
import {IGlobalRootSink} from "./IGlobalRootSink.sol";
import {IZErc20Token} from "./IZErc20Token.sol";

/// @title FixtureVerifierBase
/// @notice What both zERC20 verifier versions share, written against the published interface: proved transfer
///         roots over reserved hash chains, global roots, and the proof-gated, difference-only teleport mint.
/// @dev Every check of the published protocol is real here; only the proof systems behind the four verifier
///      contracts are fixtures. The versions differ in the mint event, the pause reverts and who may prove roots
///      ({_payOut}, {_requireNotPaused}, {_requirePaused}, {_authorizeProver}). The pause switch is written out
///      here rather than inherited, because each version reverts differently (v1 with OpenZeppelin 4's strings,
///      v2 with OpenZeppelin 5's errors) and neither may carry the other's error in its ABI.
abstract contract FixtureVerifierBase is Ownable, IGlobalRootSink {
    /// @notice The recipient a burn address commits to.
    struct GeneralRecipient {
        uint64 chainId;
        bytes32 recipient;
        bytes32 tweak;
    }

    /// @dev What a withdrawal proof claims: a transfer root, a recipient hash and the total value sent.
    struct Claim {
        uint256 transferRoot;
        uint256 recipientHash;
        uint256 value;
    }

    uint256 private constant LOW_248_BITS = (1 << 248) - 1;
    uint256 private constant RECIPIENT_HASH_TAG = 1 << 248;

    /// @notice The zERC20 token whose transfers are proved and which mints withdrawals.
    IZErc20Token public immutable token;
    /// @notice The fixture hub, which may write {globalTransferRoots} beside the owner.
    address public immutable hub;
    /// @notice LayerZero endpoint id of the hub chain (no endpoint runs locally; the value is only reported).
    uint32 public immutable hubEid;
    /// @notice Verifies single-teleport Groth16 proofs (local and global roots).
    IGroth16Verifier public immutable singleVerifier;
    /// @notice Verifies batch decider proofs against a local root.
    IWithdrawDeciderVerifier public immutable localDeciderVerifier;
    /// @notice Verifies batch decider proofs against a global root.
    IWithdrawDeciderVerifier public immutable globalDeciderVerifier;
    /// @notice Verifies transfer-root decider proofs.
    IRootDeciderVerifier public immutable rootDeciderVerifier;

    /// @notice Highest token index with a proved transfer root.
    uint64 public latestProvedIndex;
    /// @notice Token index of the newest {reserveHashChain}.
    uint64 public latestReservedIndex;
    /// @notice Proved transfer root per token index; index 0 holds the empty tree's root.
    mapping(uint64 index => uint256 root) public provedTransferRoots;
    /// @notice Global (aggregated) transfer root per global index.
    mapping(uint64 index => uint256 root) public globalTransferRoots;
    /// @notice The token's hash chain at each reserved index: the target a root proof must reach.
    mapping(uint64 index => uint256 hashChain) public reservedHashChains;
    /// @notice Total value already minted per recipient hash `R`.
    mapping(uint256 recipientHash => uint256 total) public totalTeleported;

    bool private _paused;

    /// @notice Emitted when the emergency switch stops teleports.
    event Paused(address account);
    /// @notice Emitted when the emergency switch is released.
    event Unpaused(address account);
    /// @notice Emitted when a transfer root is proved at `index`.
    event TransferRootProved(uint64 indexed index, uint256 root);
    /// @notice Emitted when the owner or the hub stores a global root (fixture administration).
    event GlobalTransferRootSet(uint64 indexed index, uint256 root);

    /// @notice The proved total does not exceed what was already minted for this recipient hash.
    error NothingToWithdraw(uint256 totalTeleported, uint256 value);
    /// @notice No root at `rootHint` (or, for a root proof, at its old index).
    error ExpectedRootZero(uint64 rootHint);
    /// @notice The stored root differs from the proof's.
    error TransferRootMismatch(uint256 expected, uint256 given);
    /// @notice The proof's recipient hash is not the hash of the given recipient.
    error RecipientMismatch(uint256 expected, uint256 given);
    /// @notice The recipient commits to another chain.
    error InvalidRecipientChainId(uint64 expected, uint64 given);
    /// @notice The proof system rejected the proof, or its public words do not have the required shape.
    error InvalidProof();
    /// @notice A root proof's new hash chain is not the one reserved at its new index (fixture error name).
    error ReservedHashChainMismatch(uint64 index, uint256 expected, uint256 given);

    /// @param token_ The zERC20 token.
    /// @param hub_ The fixture hub.
    /// @param hubEid_ The hub chain's LayerZero endpoint id.
    /// @param singleVerifier_ Groth16 verifier of single teleports.
    /// @param localDeciderVerifier_ Decider verifier of batch teleports over local roots.
    /// @param globalDeciderVerifier_ Decider verifier of batch teleports over global roots.
    /// @param rootDeciderVerifier_ Decider verifier of transfer-root proofs.
    /// @param emptyRoot Root of the empty height-40 transfer tree, stored at index 0.
    /// @param owner_ Account that may pause, set global roots and (v2) allow provers.
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
    ) Ownable(owner_) {
        token = IZErc20Token(token_);
        hub = hub_;
        hubEid = hubEid_;
        singleVerifier = IGroth16Verifier(singleVerifier_);
        localDeciderVerifier = IWithdrawDeciderVerifier(localDeciderVerifier_);
        globalDeciderVerifier = IWithdrawDeciderVerifier(globalDeciderVerifier_);
        rootDeciderVerifier = IRootDeciderVerifier(rootDeciderVerifier_);
        provedTransferRoots[0] = emptyRoot;
    }

    /// @notice Snapshots the token's current index and hash chain as the target of a root proof.
    /// @dev Callable by anyone: the snapshot is read from the token, so a caller can only choose when.
    /// @return index The token index reserved.
    /// @return hashChain The token's hash chain at that index.
    function reserveHashChain() external returns (uint64 index, uint256 hashChain) {
        index = uint64(token.index());
        hashChain = token.hashChain();
        reservedHashChains[index] = hashChain;
        latestReservedIndex = index;
    }

    /// @notice Records a proved transfer root at the proof's new index.
    /// @dev Words `[1..3]` are the old `(index, hash chain, root)`, `[4..6]` the new one. The old root must be the
    ///      proved root at the old index and the new hash chain the one reserved at the new index, so roots form
    ///      an unbroken chain over the token's transfer history.
    /// @param proof `abi.encode(uint256[32])`, a root decider proof.
    function proveTransferRoot(bytes calldata proof) external {
        _authorizeProver(msg.sender);
        uint256[32] memory words = abi.decode(proof, (uint256[32]));
        if (words[1] > type(uint64).max || words[4] > type(uint64).max) revert InvalidProof();
        uint64 oldIndex = uint64(words[1]);
        uint64 newIndex = uint64(words[4]);
        uint256 oldRoot = provedTransferRoots[oldIndex];
        if (oldRoot == 0) revert ExpectedRootZero(oldIndex);
        if (oldRoot != words[3]) revert TransferRootMismatch(oldRoot, words[3]);
        uint256 reserved = reservedHashChains[newIndex];
        if (reserved != words[5]) revert ReservedHashChainMismatch(newIndex, reserved, words[5]);
        if (!rootDeciderVerifier.verifyOpaqueNovaProof(words)) revert InvalidProof();

        uint256 newRoot = words[6];
        uint256 known = provedTransferRoots[newIndex];
        if (known != 0 && known != newRoot) {
            // Two valid proofs of different roots over one hash chain mean the proof system is broken: the
            // protocol stops teleports instead of picking one. No revert, or the pause would be undone.
            if (!paused()) _pause();
            return;
        }
        provedTransferRoots[newIndex] = newRoot;
        if (newIndex > latestProvedIndex) latestProvedIndex = newIndex;
        emit TransferRootProved(newIndex, newRoot);
    }

    /// @notice Stores a global transfer root; only the owner or the fixture hub (fixture administration).
    /// @param index Global root index.
    /// @param root The root (zero removes it).
    function setGlobalTransferRoot(uint64 index, uint256 root) external override {
        if (msg.sender != owner() && msg.sender != hub) revert OwnableUnauthorizedAccount(msg.sender);
        globalTransferRoots[index] = root;
        emit GlobalTransferRootSet(index, root);
    }

    /// @notice Mints the not-yet-minted part of the total a burn address received, proved by one Groth16 proof.
    /// @param isGlobal Whether `rootHint` indexes {globalTransferRoots} instead of {provedTransferRoots}.
    /// @param rootHint Index of the root the proof is against.
    /// @param gr The recipient the burn address commits to.
    /// @param proof `abi.encode(uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[3] [root, R, value])`.
    function singleTeleport(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof) external {
        (Claim memory claim, uint256 previous) = _verifySingle(isGlobal, rootHint, gr, proof);
        _payOut(isGlobal, rootHint, gr, claim, _record(claim, previous));
    }

    /// @notice Batch path: mints the not-yet-minted part of the total of several transfers to one burn address.
    /// @param isGlobal Whether `rootHint` indexes {globalTransferRoots} instead of {provedTransferRoots}.
    /// @param rootHint Index of the root the proof is against.
    /// @param gr The recipient the burn address commits to.
    /// @param proof `abi.encode(uint256[34])`, a withdraw decider proof.
    function teleport(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof) external {
        (Claim memory claim, uint256 previous) = _verifyBatch(isGlobal, rootHint, gr, proof);
        _payOut(isGlobal, rootHint, gr, claim, _record(claim, previous));
    }

    /// @notice Stops teleports (emergency switch).
    function activateEmergency() external onlyOwner {
        _pause();
    }

    /// @notice Resumes teleports.
    function deactivateEmergency() external onlyOwner {
        _requirePaused();
        _paused = false;
        emit Unpaused(msg.sender);
    }

    /// @notice Whether teleports are stopped.
    function paused() public view returns (bool) {
        return _paused;
    }

    /// @notice The recipient hash `R` a burn address commits to:
    ///         `2^248 + (sha256(be64(chainId) || recipient || tweak) mod 2^248)`, below the BN254 field modulus.
    /// @param gr The general recipient.
    /// @return The recipient hash.
    function recipientHashOf(GeneralRecipient calldata gr) public pure returns (uint256) {
        return (uint256(sha256(abi.encodePacked(gr.chainId, gr.recipient, gr.tweak))) & LOW_248_BITS) | RECIPIENT_HASH_TAG;
    }

    /// @dev Mints `amount` to the recipient and emits the version's mint event.
    function _payOut(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, Claim memory claim, uint256 amount) internal virtual;

    /// @dev Reverts, the version's way, while paused.
    function _requireNotPaused() internal view virtual;

    /// @dev Reverts, the version's way, unless paused.
    function _requirePaused() internal view virtual;

    /// @dev Reverts unless `caller` may prove transfer roots (v1: anyone).
    function _authorizeProver(address caller) internal view virtual {}

    /// @dev Decodes and checks a Groth16 single-teleport proof; returns its claim and the total minted so far.
    function _verifySingle(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof)
        internal
        view
        returns (Claim memory claim, uint256 previous)
    {
        _requireNotPaused();
        (uint256[2] memory a, uint256[2][2] memory b, uint256[2] memory c, uint256[3] memory publicInputs) =
            abi.decode(proof, (uint256[2], uint256[2][2], uint256[2], uint256[3]));
        claim = Claim(publicInputs[0], publicInputs[1], publicInputs[2]);
        previous = _checkClaim(isGlobal, rootHint, gr, claim);
        if (!singleVerifier.verifyProof(a, b, c, publicInputs)) revert InvalidProof();
    }

    /// @dev Decodes and checks a withdraw decider proof; returns its claim and the total minted so far.
    function _verifyBatch(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof)
        internal
        view
        returns (Claim memory claim, uint256 previous)
    {
        _requireNotPaused();
        uint256[34] memory words = abi.decode(proof, (uint256[34]));
        // The folding starts at (root, R, 0, 0) and keeps root and R: any other shape proves another statement.
        if (words[3] != 0 || words[4] != 0 || words[5] != words[1] || words[6] != words[2]) revert InvalidProof();
        claim = Claim(words[1], words[2], words[8]);
        previous = _checkClaim(isGlobal, rootHint, gr, claim);
        IWithdrawDeciderVerifier decider = isGlobal ? globalDeciderVerifier : localDeciderVerifier;
        if (!decider.verifyOpaqueNovaProof(words)) revert InvalidProof();
    }

    /// @dev The protocol's checks, in its order: a root at the hint, the proof's root, its recipient hash, the
    ///      recipient's chain, and a total above what was minted. Returns the total minted so far.
    function _checkClaim(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, Claim memory claim) internal view returns (uint256 previous) {
        uint256 root = isGlobal ? globalTransferRoots[rootHint] : provedTransferRoots[rootHint];
        if (root == 0) revert ExpectedRootZero(rootHint);
        if (root != claim.transferRoot) revert TransferRootMismatch(root, claim.transferRoot);
        uint256 expectedHash = recipientHashOf(gr);
        if (expectedHash != claim.recipientHash) revert RecipientMismatch(expectedHash, claim.recipientHash);
        if (gr.chainId != block.chainid) revert InvalidRecipientChainId(uint64(block.chainid), gr.chainId);
        previous = totalTeleported[claim.recipientHash];
        if (claim.value <= previous) revert NothingToWithdraw(previous, claim.value);
    }

    /// @dev Stores the new total before any token call, so a re-entrant mint sees it and cannot mint twice;
    ///      returns the difference to mint.
    function _record(Claim memory claim, uint256 previous) internal returns (uint256 amount) {
        totalTeleported[claim.recipientHash] = claim.value;
        return claim.value - previous;
    }

    function _pause() private {
        _requireNotPaused();
        _paused = true;
        emit Paused(msg.sender);
    }

    /// @dev The address a general recipient pays: its 32-byte `recipient` with the high 12 bytes dropped.
    function _recipientAddress(GeneralRecipient calldata gr) internal pure returns (address) {
        return address(uint160(uint256(gr.recipient)));
    }
}
