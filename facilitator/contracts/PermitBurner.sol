// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title PermitBurner
/// @notice Gasless burn path of the `svc-zerc20` scheme: the payer signs an EIP-2612 permit and a
///         BurnAuthorization; a relayer submits both here and, in one transaction, the allowance is granted
///         and exactly `value` moves from the payer to the one-time burn address the payer agreed to.
/// @dev The replay ledger is keyed on the EIP-712 digest of the BurnAuthorization (the `authorizationId`),
///      not on the challenge nonce or the permit nonce. The digest commits to every field and to this
///      contract's domain, so a payload that is re-sent (by a retrying relayer, a client resubmitting after a
///      timeout, or anyone who saw it in the mempool) maps to the same id and can never burn twice, while two
///      distinct authorizations can never collide. The facilitator computes the same id off-chain with viem
///      `hashTypedData` and reads `executed(id)` to reconcile a burn whose receipt it did not observe.
contract PermitBurner is EIP712 {
    using SafeERC20 for IERC20;

    /// @notice What the payer authorizes: move `value` of `token` from `payer` to `burnAddress` for the
    ///         offer identified by `challengeNonce`, no later than `deadline`.
    struct BurnAuthorization {
        address token;
        address payer;
        address burnAddress;
        uint256 value;
        bytes32 challengeNonce;
        uint256 deadline;
    }

    /// @notice The payer's EIP-2612 permit for this contract as spender of exactly `BurnAuthorization.value`.
    struct PermitSignature {
        uint256 deadline;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    /// @notice EIP-712 type hash of {BurnAuthorization}.
    bytes32 public constant BURN_AUTHORIZATION_TYPEHASH = keccak256(
        "BurnAuthorization(address token,address payer,address burnAddress,uint256 value,bytes32 challengeNonce,uint256 deadline)"
    );

    /// @notice Replay ledger: true once the authorization with this id has burned.
    mapping(bytes32 authorizationId => bool) public executed;

    /// @notice Emitted once per executed authorization.
    event BurnExecuted(
        bytes32 indexed challengeNonce,
        bytes32 indexed authorizationId,
        address indexed token,
        address payer,
        address burnAddress,
        uint256 value
    );

    /// @notice The authorization's deadline has passed.
    error AuthorizationExpired(uint256 deadline, uint256 nowTimestamp);
    /// @notice The burn authorization signature is malformed or not by `auth.payer`.
    error InvalidBurnAuthorization();
    /// @notice This authorization has already burned.
    error AuthorizationAlreadyUsed(bytes32 authorizationId);
    /// @notice The permit reverted and the existing allowance does not cover the burn.
    error PermitFailed(uint256 allowance, uint256 value);
    /// @notice A zero-value burn was requested.
    error ZeroValue();

    constructor() EIP712("SvcPermitBurner", "1") {}

    /// @notice Applies the payer's permit and moves `auth.value` from the payer to `auth.burnAddress`.
    /// @dev Anyone may submit (the relayer pays gas); the signatures bind every field. The ledger entry is
    ///      written before any external call, so a re-entrant token cannot replay the authorization. A permit
    ///      that fails is tolerated when the allowance already covers the burn: someone may have submitted the
    ///      same permit first (front-running), which must not turn a valid payment into a failure.
    /// @param auth The burn authorization signed by `auth.payer`.
    /// @param permit The payer's EIP-2612 permit signature (spender = this contract, value = `auth.value`).
    /// @param burnAuthSig The payer's 65-byte EIP-712 signature over `auth`.
    function permitAndBurn(
        BurnAuthorization calldata auth,
        PermitSignature calldata permit,
        bytes calldata burnAuthSig
    ) external {
        if (block.timestamp > auth.deadline) revert AuthorizationExpired(auth.deadline, block.timestamp);
        if (auth.value == 0) revert ZeroValue();

        bytes32 id = authorizationId(auth);
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(id, burnAuthSig);
        if (recoverError != ECDSA.RecoverError.NoError || signer != auth.payer) revert InvalidBurnAuthorization();

        if (executed[id]) revert AuthorizationAlreadyUsed(id);
        executed[id] = true;

        try IERC20Permit(auth.token).permit(
            auth.payer, address(this), auth.value, permit.deadline, permit.v, permit.r, permit.s
        ) {} catch {
            uint256 allowance = IERC20(auth.token).allowance(auth.payer, address(this));
            if (allowance < auth.value) revert PermitFailed(allowance, auth.value);
        }

        IERC20(auth.token).safeTransferFrom(auth.payer, auth.burnAddress, auth.value);

        emit BurnExecuted(auth.challengeNonce, id, auth.token, auth.payer, auth.burnAddress, auth.value);
    }

    /// @notice The EIP-712 digest of `auth` under this contract's domain: the key of the replay ledger.
    /// @param auth The burn authorization.
    /// @return The digest the payer signs, equal to viem `hashTypedData` over the same domain and message.
    function authorizationId(BurnAuthorization calldata auth) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    BURN_AUTHORIZATION_TYPEHASH,
                    auth.token,
                    auth.payer,
                    auth.burnAddress,
                    auth.value,
                    auth.challengeNonce,
                    auth.deadline
                )
            )
        );
    }
}
