// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title FixtureZErc20Base
/// @notice What both zERC20 token versions share, written against the published interface: an ERC-20 whose
///         every balance change emits `IndexedTransfer` and advances a 248-bit hash chain, and a teleport mint
///         only the verifier may call. The versions differ in the hash chain formula and in what a teleport
///         records ({_nextHashChain}, {_afterTeleport}).
/// @dev Fixture-only administration (owner sets minter and verifier, the minter funds accounts) stands in for
///      the real deployment's upgradeable roles; its ABI lives in anvil-fixtures, not in the protocol's.
abstract contract FixtureZErc20Base is ERC20, Ownable {
    /// @notice Largest value a single balance change may carry (2^248 - 1), so that it fits a BN254 field
    ///         element; also the hash chain mask.
    uint256 public constant MAX_VALUE = (1 << 248) - 1;

    /// @notice Number of balance changes so far; the index the next {IndexedTransfer} will carry.
    uint256 public index;
    /// @notice Running 248-bit hash chain over every balance change so far (0 before the first).
    uint256 public hashChain;
    /// @notice The only account that may {mint} (fixture funding).
    address public minter;
    /// @notice The verifier contract, the only account that may {teleport}.
    address public verifier;

    uint8 private immutable _decimals;

    /// @notice Emitted after the ERC-20 `Transfer` of every balance change, with that change's index.
    event IndexedTransfer(uint256 indexed index, address from, address to, uint256 value);
    /// @notice Emitted when the owner changes the minter (fixture administration).
    event MinterSet(address indexed minter);
    /// @notice Emitted when the owner changes the verifier (fixture administration).
    event VerifierSet(address indexed verifier);

    /// @notice A balance change above {MAX_VALUE}.
    error ValueTooLarge();
    /// @notice {teleport} by someone other than the verifier.
    error OnlyVerifier();
    /// @notice {mint} by someone other than the minter.
    error OnlyMinter();

    /// @param name_ Token name.
    /// @param symbol_ Token symbol.
    /// @param decimals_ Token decimals.
    /// @param owner_ Account that sets the minter and the verifier.
    constructor(string memory name_, string memory symbol_, uint8 decimals_, address owner_) ERC20(name_, symbol_) Ownable(owner_) {
        _decimals = decimals_;
    }

    /// @notice The token's decimals, fixed at deployment.
    function decimals() public view virtual override returns (uint8) {
        return _decimals;
    }

    /// @notice Sets the account allowed to {mint}.
    /// @param minter_ The new minter (zero disables minting).
    function setMinter(address minter_) external onlyOwner {
        minter = minter_;
        emit MinterSet(minter_);
    }

    /// @notice Sets the verifier contract allowed to {teleport}.
    /// @param verifier_ The new verifier (zero disables teleports).
    function setVerifier(address verifier_) external onlyOwner {
        verifier = verifier_;
        emit VerifierSet(verifier_);
    }

    /// @notice Mints `value` to `to`; fixture funding only.
    /// @param to Recipient.
    /// @param value Amount in base units.
    function mint(address to, uint256 value) external {
        if (msg.sender != minter) revert OnlyMinter();
        _mint(to, value);
    }

    /// @notice Mints `value` to `to` on behalf of the verifier after it has checked a withdrawal proof.
    /// @param to Recipient.
    /// @param value Amount in base units.
    function teleport(address to, uint256 value) external {
        if (msg.sender != verifier) revert OnlyVerifier();
        _mint(to, value);
        _afterTeleport(to, value);
    }

    /// @dev What the version records for a teleport mint (v1: an event, v2: the token-wide sum).
    function _afterTeleport(address to, uint256 value) internal virtual;

    /// @dev The version's hash chain after one more balance change.
    function _nextHashChain(uint256 previous, address from, address to, uint256 value) internal pure virtual returns (uint256);

    /// @dev The single choke point of every balance change (transfer, transferFrom, mint, teleport), so the cap,
    ///      the indexed event and the hash chain cannot be bypassed by any path.
    function _update(address from, address to, uint256 value) internal virtual override {
        if (value > MAX_VALUE) revert ValueTooLarge();
        super._update(from, to, value);
        uint256 current = index;
        emit IndexedTransfer(current, from, to, value);
        hashChain = _nextHashChain(hashChain, from, to, value);
        index = current + 1;
    }
}
