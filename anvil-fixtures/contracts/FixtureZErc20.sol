// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title FixtureZErc20
/// @notice Local stand-in for the permit-enabled zERC20 token, written against the public interface:
///         ERC-20 with 18 decimals, EIP-2612 permit (domain `{name(), "1"}`), an indexed transfer log with a
///         248-bit hash chain over every balance change, and a teleport mint reserved to the verifier.
/// @dev Hash chain variant: `next = sha256(bytes32(prev) || to || value) & (2^248 - 1)`, i.e. the variant
///      WITHOUT `from`. Only the recipient and the amount enter a transfer leaf (`Poseidon(to, value)`), so the
///      chain commits to exactly what the transfer tree proves; the indexer and the root prover recompute it the
///      same way. Values are capped at 2^248 - 1 so that every value fits a BN254 field element.
contract FixtureZErc20 is ERC20Permit, Ownable {
    /// @notice Largest value a single balance change may carry (2^248 - 1); also the hash chain mask.
    uint256 public constant MAX_VALUE = (1 << 248) - 1;

    /// @notice Number of balance changes so far; the index the next {IndexedTransfer} will carry.
    uint256 public index;
    /// @notice Running 248-bit hash chain over every balance change so far (0 before the first).
    uint256 public hashChain;
    /// @notice The only account that may {mint}.
    address public minter;
    /// @notice The verifier contract, the only account that may {teleport}.
    address public verifier;

    /// @notice Emitted after the ERC-20 `Transfer` of every balance change, with that change's index.
    event IndexedTransfer(uint256 indexed index, address from, address to, uint256 value);
    /// @notice Emitted by {teleport} after the mint.
    event Teleport(address indexed to, uint256 value);
    /// @notice Emitted when the owner changes the minter.
    event MinterSet(address indexed minter);
    /// @notice Emitted when the owner changes the verifier.
    event VerifierSet(address indexed verifier);

    /// @notice A balance change above {MAX_VALUE}.
    error ValueTooLarge(uint256 value);
    /// @notice {mint} by someone other than the minter.
    error NotMinter(address caller);
    /// @notice {teleport} by someone other than the verifier.
    error NotVerifier(address caller);

    /// @param name_ Token name, also the EIP-712 domain name of permit.
    /// @param symbol_ Token symbol.
    /// @param owner_ Account that sets the minter and the verifier.
    constructor(string memory name_, string memory symbol_, address owner_)
        ERC20(name_, symbol_)
        ERC20Permit(name_)
        Ownable(owner_)
    {}

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
        if (msg.sender != minter) revert NotMinter(msg.sender);
        _mint(to, value);
    }

    /// @notice Mints `value` to `to` on behalf of the verifier after it has checked a withdrawal proof.
    /// @param to Recipient.
    /// @param value Amount in base units.
    function teleport(address to, uint256 value) external {
        if (msg.sender != verifier) revert NotVerifier(msg.sender);
        _mint(to, value);
        emit Teleport(to, value);
    }

    /// @dev The single choke point of every balance change (transfer, transferFrom, mint, teleport), so the cap,
    ///      the indexed event and the hash chain cannot be bypassed by any path.
    function _update(address from, address to, uint256 value) internal override {
        if (value > MAX_VALUE) revert ValueTooLarge(value);
        super._update(from, to, value);
        uint256 current = index;
        emit IndexedTransfer(current, from, to, value);
        hashChain = uint256(sha256(abi.encodePacked(bytes32(hashChain), to, value))) & MAX_VALUE;
        index = current + 1;
    }
}
