// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title FeeSplitter
/// @notice The treasury in split fee mode: proof-gated mints land at this contract's own address, and anyone
///         may call {distribute} to split the whole balance of a token between the payee and the fee recipient.
/// @dev Every parameter is immutable, so there is no owner and nothing to govern. Because the mint goes here
///      rather than to the payee, the payee's address never appears in a mint transaction either.
///
///      Rounding: `fee = balance * bps / 10000` rounded DOWN, and the payee receives `balance - fee`. Any
///      remainder of the division therefore goes to the payee, never to the fee recipient, and the two
///      amounts always sum to the full balance (nothing is left behind). Example: balance 199, bps 100 gives
///      fee 1 (1.99 rounded down) and payee 198.
contract FeeSplitter {
    using SafeERC20 for IERC20;

    /// @notice Denominator of {bps}: 10000 basis points are 100%.
    uint256 public constant BPS_DENOMINATOR = 10_000;

    /// @notice Receives the balance minus the fee.
    address public immutable payee;
    /// @notice Receives the fee.
    address public immutable feeRecipient;
    /// @notice Fee share in basis points, 1..10000.
    uint16 public immutable bps;

    /// @notice Emitted for every distribution.
    event Distributed(address indexed token, uint256 payeeAmount, uint256 feeAmount);

    /// @notice The fee share is outside 1..10000.
    error InvalidBps(uint256 bps);
    /// @notice The payee or fee recipient is the zero address.
    error ZeroAddress();
    /// @notice The contract holds none of the token.
    error NothingToDistribute();

    /// @param payee_ Receives the balance minus the fee.
    /// @param feeRecipient_ Receives the fee.
    /// @param bps_ Fee share in basis points, 1..10000.
    constructor(address payee_, address feeRecipient_, uint16 bps_) {
        if (payee_ == address(0) || feeRecipient_ == address(0)) revert ZeroAddress();
        if (bps_ == 0 || bps_ > BPS_DENOMINATOR) revert InvalidBps(bps_);
        payee = payee_;
        feeRecipient = feeRecipient_;
        bps = bps_;
    }

    /// @notice Splits this contract's whole balance of `token`: the fee (rounded down) to the fee recipient,
    ///         the rest to the payee. Callable by anyone.
    /// @dev Zero-amount legs are skipped: on a zERC20 token every transfer, even of zero, advances the
    ///      indexed hash chain, so an empty transfer would only add noise to the transfer tree.
    /// @param token The ERC-20 token to distribute.
    function distribute(address token) external {
        uint256 balance = IERC20(token).balanceOf(address(this));
        if (balance == 0) revert NothingToDistribute();

        // mulDiv rounds down and cannot overflow even for balances near 2^256.
        uint256 feeAmount = Math.mulDiv(balance, bps, BPS_DENOMINATOR);
        uint256 payeeAmount = balance - feeAmount;

        if (feeAmount > 0) IERC20(token).safeTransfer(feeRecipient, feeAmount);
        if (payeeAmount > 0) IERC20(token).safeTransfer(payee, payeeAmount);

        emit Distributed(token, payeeAmount, feeAmount);
    }
}
