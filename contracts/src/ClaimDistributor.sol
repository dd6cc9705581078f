// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// Pays the platform's off-chain rewards (commissions, rank bonuses) in LVLX against vouchers
/// the server signs after a member confirms a claim with their emailed code. A voucher names an
/// account and the CUMULATIVE amount it has earned; the contract pays that minus what the account
/// has already received, so a voucher replayed, or older than one already used, pays nothing.
/// Caps bound one claim and one UTC day. The owner sets the signer and the caps and may pause
/// claims; no function takes tokens out except a claim to its account.
contract ClaimDistributor is Ownable, Pausable, ReentrancyGuard, EIP712 {
    using SafeERC20 for IERC20;

    bytes32 public constant CLAIM_TYPEHASH =
        keccak256("Claim(address account,uint256 cumulative,uint256 deadline)");

    IERC20 public immutable token;
    /// The server's claim-signing address.
    address public signer;
    uint256 public maxPerClaim;
    uint256 public maxPerDay;
    /// What each account has received so far.
    mapping(address => uint256) public claimed;
    /// The UTC day the daily tally counts, and what was paid on it (one storage slot).
    uint64 public day;
    uint192 public paidToday;

    event Claimed(address indexed account, uint256 amount, uint256 cumulative);
    event SignerChanged(address signer);
    event CapsChanged(uint256 maxPerClaim, uint256 maxPerDay);

    error ZeroAddress();
    error VoucherExpired(uint256 deadline);
    error BadSignature();
    error NothingToClaim();
    error OverClaimCap(uint256 amount, uint256 cap);
    error OverDailyCap(uint256 amount, uint256 left);

    constructor(IERC20 token_, address signer_, uint256 maxPerClaim_, uint256 maxPerDay_, address owner_)
        Ownable(owner_)
        EIP712("LVLX Claims", "1")
    {
        if (address(token_) == address(0) || signer_ == address(0)) revert ZeroAddress();
        token = token_;
        signer = signer_;
        maxPerClaim = maxPerClaim_;
        maxPerDay = maxPerDay_;
        emit SignerChanged(signer_);
        emit CapsChanged(maxPerClaim_, maxPerDay_);
    }

    /// Pays `account` what the voucher adds to what it already received. Anyone may submit it;
    /// the tokens go to `account` only.
    function claim(address account, uint256 cumulative, uint256 deadline, bytes calldata signature)
        external
        whenNotPaused
        nonReentrant
    {
        if (block.timestamp > deadline) revert VoucherExpired(deadline);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(CLAIM_TYPEHASH, account, cumulative, deadline)));
        if (ECDSA.recover(digest, signature) != signer) revert BadSignature();
        uint256 already = claimed[account];
        if (cumulative <= already) revert NothingToClaim();
        uint256 amount = cumulative - already;
        if (amount > maxPerClaim) revert OverClaimCap(amount, maxPerClaim);
        uint64 today = uint64(block.timestamp / 1 days);
        uint256 paid = today == day ? paidToday : 0;
        if (paid + amount > maxPerDay) revert OverDailyCap(amount, paid >= maxPerDay ? 0 : maxPerDay - paid);
        day = today;
        paidToday = uint192(paid + amount);
        claimed[account] = cumulative;
        token.safeTransfer(account, amount);
        emit Claimed(account, amount, cumulative);
    }

    /// The EIP-712 domain separator (chain id and this contract), for off-chain signers.
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function setSigner(address signer_) external onlyOwner {
        if (signer_ == address(0)) revert ZeroAddress();
        signer = signer_;
        emit SignerChanged(signer_);
    }

    function setCaps(uint256 maxPerClaim_, uint256 maxPerDay_) external onlyOwner {
        maxPerClaim = maxPerClaim_;
        maxPerDay = maxPerDay_;
        emit CapsChanged(maxPerClaim_, maxPerDay_);
    }

    function pause() external onlyOwner {
        _pause();
    }

    function unpause() external onlyOwner {
        _unpause();
    }
}
