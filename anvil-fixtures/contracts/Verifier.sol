// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {IProofVerifier} from "./IProofVerifier.sol";
import {IZErc20Teleportable} from "./IZErc20Teleportable.sol";
import {IGlobalRootSource} from "./IGlobalRootSource.sol";

/// @title Verifier
/// @notice Local stand-in for the zERC20 verifier: keeps the proved transfer roots of the token's indexed
///         transfers and mints withdrawals to the recipient a burn address commits to, difference-only.
/// @dev Every check of the public protocol is real here (reserved hash chain, root continuity, recipient hash,
///      chain id, difference-only mint); only the proof system behind the four {IProofVerifier}s is replaced.
///      Proof bytes are `abi.encode(uint256[] publicInputs, bytes proof)`:
///      - root proof inputs: `[oldIndex, newIndex, oldHashChain, newHashChain, oldRoot, newRoot]`;
///      - teleport proof inputs: `[transferRoot, recipientHash, value]`, where `value` is the TOTAL ever sent to
///        the burn address, which is why only the difference over {totalTeleported} is minted.
contract Verifier is Ownable, Pausable {
    /// @notice The recipient a burn address commits to.
    struct GeneralRecipient {
        uint64 chainId;
        bytes32 recipient;
        bytes32 tweak;
    }

    uint256 private constant ROOT_INPUTS = 6;
    uint256 private constant TELEPORT_INPUTS = 3;

    /// @notice The zERC20 token whose transfers are proved and which mints withdrawals.
    IZErc20Teleportable public immutable token;
    /// @notice Source of aggregated global roots (zero address: global path unavailable).
    IGlobalRootSource public immutable hub;
    /// @notice Verifies transfer root proofs.
    IProofVerifier public immutable rootVerifier;
    /// @notice Verifies single-transfer withdrawal proofs (local and global).
    IProofVerifier public immutable singleVerifier;
    /// @notice Verifies batch withdrawal proofs against a local root.
    IProofVerifier public immutable batchLocalVerifier;
    /// @notice Verifies batch withdrawal proofs against a global root.
    IProofVerifier public immutable batchGlobalVerifier;

    /// @notice Token index snapshotted by the last {reserveHashChain}.
    uint64 public reservedIndex;
    /// @notice Token hash chain snapshotted by the last {reserveHashChain}.
    uint256 public reservedHashChain;
    /// @notice Index of the newest proved transfer root.
    uint64 public latestProvedIndex;
    /// @notice Hash chain at {latestProvedIndex} (zero at index 0): the next root proof must start from it.
    uint256 public latestProvedHashChain;
    /// @notice Proved transfer root per token index; index 0 holds the empty tree's root.
    mapping(uint64 index => uint256 root) public provedTransferRoots;
    /// @notice Total value already minted per recipient hash.
    mapping(bytes32 recipientHash => uint256 total) public totalTeleported;

    /// @notice Emitted by {reserveHashChain}.
    event HashChainReserved(uint64 indexed index, uint256 hashChain);
    /// @notice Emitted when a transfer root is proved at `index`.
    event TransferRootProved(uint64 indexed index, uint256 root);
    /// @notice Emitted per teleport with the amount actually minted (the difference).
    event Teleported(bytes32 indexed recipientHash, address indexed to, uint256 value);

    /// @notice No reservation newer than the latest proved index exists.
    error NothingReserved();
    /// @notice The root proof does not start at the latest proved index.
    error StaleRootProof(uint64 expectedOldIndex, uint64 givenOldIndex);
    /// @notice The root proof's old root / old hash chain / new index / new hash chain do not match the state.
    error RootProofMismatch();
    /// @notice No non-zero root at `rootHint`, or it differs from the proof's root.
    error UnknownRoot(uint64 rootHint);
    /// @notice The proof's recipient hash is not the hash of the given recipient.
    error RecipientHashMismatch(bytes32 expected, bytes32 given);
    /// @notice The recipient commits to another chain.
    error WrongChain(uint64 expected, uint64 given);
    /// @notice The proved total does not exceed what was already minted.
    error NothingToTeleport(uint256 alreadyTeleported, uint256 value);
    /// @notice The proof system rejected the proof.
    error InvalidProof();
    /// @notice The proof bytes do not decode, or carry the wrong number of public inputs.
    error MalformedProof();
    /// @notice A global teleport was requested but no hub is configured.
    error GlobalRootsUnavailable();

    /// @param token_ The zERC20 token.
    /// @param hub_ The hub (zero disables the global path).
    /// @param rootVerifier_ Verifier of transfer root proofs.
    /// @param singleVerifier_ Verifier of single withdrawal proofs.
    /// @param batchLocalVerifier_ Verifier of batch withdrawal proofs over a local root.
    /// @param batchGlobalVerifier_ Verifier of batch withdrawal proofs over a global root.
    /// @param emptyRoot Root of the empty height-40 Poseidon transfer tree, stored at index 0.
    /// @param owner_ Account that may pause and unpause.
    constructor(
        address token_,
        address hub_,
        address rootVerifier_,
        address singleVerifier_,
        address batchLocalVerifier_,
        address batchGlobalVerifier_,
        uint256 emptyRoot,
        address owner_
    ) Ownable(owner_) {
        token = IZErc20Teleportable(token_);
        hub = IGlobalRootSource(hub_);
        rootVerifier = IProofVerifier(rootVerifier_);
        singleVerifier = IProofVerifier(singleVerifier_);
        batchLocalVerifier = IProofVerifier(batchLocalVerifier_);
        batchGlobalVerifier = IProofVerifier(batchGlobalVerifier_);
        provedTransferRoots[0] = emptyRoot;
    }

    /// @notice Snapshots the token's current index and hash chain as the target of the next root proof.
    /// @dev Callable by anyone: the snapshot is read from the token, so a caller can only choose when.
    function reserveHashChain() external {
        uint64 currentIndex = uint64(token.index());
        uint256 currentHashChain = token.hashChain();
        reservedIndex = currentIndex;
        reservedHashChain = currentHashChain;
        emit HashChainReserved(currentIndex, currentHashChain);
    }

    /// @notice Records a proved transfer root at the reserved index.
    /// @dev The proof must extend the latest proved state (old index, old root, old hash chain) to exactly
    ///      the reserved snapshot, so roots form an unbroken chain over the token's transfer history.
    /// @param proof `abi.encode(uint256[6] inputs, bytes proof)`, inputs as documented on the contract.
    function proveTransferRoot(bytes calldata proof) external {
        (uint256[] memory inputs, bytes memory proofBytes) = _decode(proof, ROOT_INPUTS);
        uint64 expectedOldIndex = latestProvedIndex;
        if (reservedIndex <= expectedOldIndex) revert NothingReserved();
        if (inputs[0] != expectedOldIndex) revert StaleRootProof(expectedOldIndex, uint64(inputs[0]));
        if (inputs[4] != provedTransferRoots[expectedOldIndex] || inputs[2] != latestProvedHashChain) {
            revert RootProofMismatch();
        }
        if (inputs[1] != reservedIndex || inputs[3] != reservedHashChain || inputs[1] <= inputs[0]) {
            revert RootProofMismatch();
        }
        if (!rootVerifier.verifyProof(inputs, proofBytes)) revert InvalidProof();

        uint64 newIndex = reservedIndex;
        provedTransferRoots[newIndex] = inputs[5];
        latestProvedIndex = newIndex;
        latestProvedHashChain = inputs[3];
        emit TransferRootProved(newIndex, inputs[5]);
    }

    /// @notice Mints the not-yet-minted part of a single proved transfer to the burn address's recipient.
    /// @param isGlobal Whether `rootHint` indexes the hub's global roots instead of local proved roots.
    /// @param rootHint Index of the root the proof is against.
    /// @param gr The recipient the burn address commits to.
    /// @param proof `abi.encode(uint256[3] [transferRoot, recipientHash, value], bytes proof)`.
    function singleTeleport(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof)
        external
        whenNotPaused
    {
        _teleport(isGlobal, rootHint, gr, proof, singleVerifier);
    }

    /// @notice Batch path: mints the not-yet-minted part of the total of several transfers to one burn address.
    /// @param isGlobal Whether `rootHint` indexes the hub's global roots instead of local proved roots.
    /// @param rootHint Index of the root the proof is against.
    /// @param gr The recipient the burn address commits to.
    /// @param proof `abi.encode(uint256[3] [transferRoot, recipientHash, totalValue], bytes deciderProof)`.
    function teleport(bool isGlobal, uint64 rootHint, GeneralRecipient calldata gr, bytes calldata proof)
        external
        whenNotPaused
    {
        _teleport(isGlobal, rootHint, gr, proof, isGlobal ? batchGlobalVerifier : batchLocalVerifier);
    }

    /// @notice Stops teleports (emergency switch).
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Resumes teleports.
    function unpause() external onlyOwner {
        _unpause();
    }

    /// @notice Splits proof bytes into public inputs and proof; reverts on anything that does not decode.
    /// @dev External only so that {_decode} can turn a decoding revert into {MalformedProof} via try/catch.
    /// @param proof The encoded proof.
    /// @return publicInputs The public inputs.
    /// @return proofBytes The proof itself.
    function decodeProof(bytes calldata proof)
        external
        pure
        returns (uint256[] memory publicInputs, bytes memory proofBytes)
    {
        return abi.decode(proof, (uint256[], bytes));
    }

    /// @notice The recipient hash a burn address commits to: `sha256(chainId (8 bytes) || recipient || tweak)`
    ///         with byte 0 replaced by 0x01, which keeps it below the BN254 field modulus.
    /// @param gr The general recipient.
    /// @return The recipient hash.
    function recipientHashOf(GeneralRecipient calldata gr) public pure returns (bytes32) {
        bytes32 digest = sha256(abi.encodePacked(gr.chainId, gr.recipient, gr.tweak));
        return (digest & bytes32(type(uint256).max >> 8)) | bytes32(uint256(1) << 248);
    }

    function _teleport(
        bool isGlobal,
        uint64 rootHint,
        GeneralRecipient calldata gr,
        bytes calldata proof,
        IProofVerifier proofVerifier
    ) private {
        (uint256[] memory inputs, bytes memory proofBytes) = _decode(proof, TELEPORT_INPUTS);

        uint256 root = _rootAt(isGlobal, rootHint);
        if (root == 0 || root != inputs[0]) revert UnknownRoot(rootHint);

        bytes32 recipientHash = recipientHashOf(gr);
        if (bytes32(inputs[1]) != recipientHash) revert RecipientHashMismatch(recipientHash, bytes32(inputs[1]));

        if (gr.chainId != block.chainid) revert WrongChain(uint64(block.chainid), gr.chainId);

        uint256 value = inputs[2];
        uint256 alreadyTeleported = totalTeleported[recipientHash];
        if (value <= alreadyTeleported) revert NothingToTeleport(alreadyTeleported, value);

        if (!proofVerifier.verifyProof(inputs, proofBytes)) revert InvalidProof();

        // Effects before the token call: a re-entrant mint sees the new total and cannot mint twice.
        totalTeleported[recipientHash] = value;
        address to = address(uint160(uint256(gr.recipient)));
        uint256 amount = value - alreadyTeleported;
        token.teleport(to, amount);
        emit Teleported(recipientHash, to, amount);
    }

    function _rootAt(bool isGlobal, uint64 rootHint) private view returns (uint256) {
        if (!isGlobal) return provedTransferRoots[rootHint];
        if (address(hub) == address(0)) revert GlobalRootsUnavailable();
        return hub.globalRoots(rootHint);
    }

    function _decode(bytes calldata proof, uint256 inputCount)
        private
        view
        returns (uint256[] memory inputs, bytes memory proofBytes)
    {
        try this.decodeProof(proof) returns (uint256[] memory decodedInputs, bytes memory decodedProof) {
            if (decodedInputs.length != inputCount) revert MalformedProof();
            return (decodedInputs, decodedProof);
        } catch {
            revert MalformedProof();
        }
    }
}
