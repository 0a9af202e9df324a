// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// @title FixtureUsdc3009
/// @notice Local stand-in for a USDC-like token with EIP-3009 (`transferWithAuthorization`,
///         `receiveWithAuthorization`, `cancelAuthorization`), the token the official x402 `exact` EVM scheme pays
///         with. It exists only so the benchmarks can run that scheme on the same anvil chain as svc-zerc20; it is
///         a fixture, never product.
/// @dev EIP-712 domain `{name: name(), version: version(), chainId, verifyingContract: this}`, which is what
///      the x402 EVM package signs and verifies against (`extra.name`, `extra.version` of the requirements).
///      Both signature encodings that package may call are implemented: `(v, r, s)` for 65-byte ECDSA
///      signatures and `bytes signature` (ECDSA or ERC-1271) for anything else.
contract FixtureUsdc3009 is ERC20, EIP712, Ownable {
    /// @notice keccak256 of the EIP-3009 TransferWithAuthorization type.
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice keccak256 of the EIP-3009 ReceiveWithAuthorization type.
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH = keccak256(
        "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
    );
    /// @notice keccak256 of the EIP-3009 CancelAuthorization type.
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH = keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    /// @dev The EIP-712 domain version, also returned by {version}.
    string private constant DOMAIN_VERSION = "2";

    /// @dev authorizer => nonce => used or canceled.
    mapping(address => mapping(bytes32 => bool)) private _authorizationStates;

    /// @notice Emitted when an authorization is executed.
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    /// @notice Emitted when an authorization is canceled.
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    /// @notice The authorization's `validAfter` has not passed yet.
    error AuthorizationNotYetValid(uint256 validAfter);
    /// @notice The authorization's `validBefore` has passed.
    error AuthorizationExpired(uint256 validBefore);
    /// @notice The nonce was already used or canceled for this authorizer.
    error AuthorizationUsedOrCanceled(address authorizer, bytes32 nonce);
    /// @notice The signature is not the authorizer's over the typed data.
    error InvalidSignature();
    /// @notice `receiveWithAuthorization` called by someone other than the payee.
    error CallerNotPayee(address caller, address payee);

    /// @param name_ Token name, also the EIP-712 domain name.
    /// @param symbol_ Token symbol.
    /// @param owner_ Account allowed to {mint}.
    constructor(string memory name_, string memory symbol_, address owner_)
        ERC20(name_, symbol_)
        EIP712(name_, DOMAIN_VERSION)
        Ownable(owner_)
    {}

    /// @notice Six decimals, like USDC.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice The EIP-712 domain version ("2", like USDC).
    function version() external pure returns (string memory) {
        return DOMAIN_VERSION;
    }

    /// @notice The EIP-712 domain separator of this token.
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice Mints `value` to `to`; fixture funding only.
    /// @param to Recipient.
    /// @param value Amount in base units.
    function mint(address to, uint256 value) external onlyOwner {
        _mint(to, value);
    }

    /// @notice Whether `nonce` of `authorizer` was used or canceled.
    /// @param authorizer The signer of the authorization.
    /// @param nonce The authorization's unique nonce.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationStates[authorizer][nonce];
    }

    /// @notice Executes a transfer signed by `from` (65-byte ECDSA signature split into v, r, s).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        bytes32 digest = _authorizationDigest(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce);
        _requireEcdsaSigner(from, digest, v, r, s);
        _execute(from, to, value, validAfter, validBefore, nonce);
    }

    /// @notice Executes a transfer signed by `from` (any signature `SignatureChecker` accepts, incl. ERC-1271).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external {
        bytes32 digest = _authorizationDigest(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce);
        _requireSigner(from, digest, signature);
        _execute(from, to, value, validAfter, validBefore, nonce);
    }

    /// @notice Like {transferWithAuthorization}, but only the payee `to` may submit it (front-running safe).
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (msg.sender != to) revert CallerNotPayee(msg.sender, to);
        bytes32 digest = _authorizationDigest(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce);
        _requireEcdsaSigner(from, digest, v, r, s);
        _execute(from, to, value, validAfter, validBefore, nonce);
    }

    /// @notice {receiveWithAuthorization} with a `bytes` signature (ECDSA or ERC-1271).
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external {
        if (msg.sender != to) revert CallerNotPayee(msg.sender, to);
        bytes32 digest = _authorizationDigest(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce);
        _requireSigner(from, digest, signature);
        _execute(from, to, value, validAfter, validBefore, nonce);
    }

    /// @notice Cancels an unused authorization of `authorizer`.
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        if (_authorizationStates[authorizer][nonce]) revert AuthorizationUsedOrCanceled(authorizer, nonce);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)));
        _requireEcdsaSigner(authorizer, digest, v, r, s);
        _authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _authorizationDigest(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce
    ) private view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce)));
    }

    function _requireEcdsaSigner(address signer, bytes32 digest, uint8 v, bytes32 r, bytes32 s) private pure {
        (address recovered, ECDSA.RecoverError error,) = ECDSA.tryRecover(digest, v, r, s);
        if (error != ECDSA.RecoverError.NoError || recovered != signer) revert InvalidSignature();
    }

    function _requireSigner(address signer, bytes32 digest, bytes memory signature) private view {
        if (!SignatureChecker.isValidSignatureNow(signer, digest, signature)) revert InvalidSignature();
    }

    function _execute(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce) private {
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid(validAfter);
        if (block.timestamp >= validBefore) revert AuthorizationExpired(validBefore);
        if (_authorizationStates[from][nonce]) revert AuthorizationUsedOrCanceled(from, nonce);
        _authorizationStates[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }
}
