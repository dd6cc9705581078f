// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Owned} from "./Owned.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// Pays the platform's off-chain rewards (commissions, rank bonuses) in LVLX against vouchers
/// the server signs after a member confirms a claim with their emailed code. A voucher names an
/// account and the CUMULATIVE amount it has earned; the contract pays that minus what the account
/// has already received, so a voucher replayed, or older than one already used, pays nothing.
/// Caps bound one claim, one UTC day over all accounts, and one UTC day for each account (so a
/// stolen signing key drains at most the daily cap, and no one account can take a day's whole
/// allowance from the others). No function takes tokens out except a claim to its account.
///
/// What an owner (or a stolen owner key) could use to move more out waits `delay` seconds, fixed
/// at deployment, announced by an event and cancellable meanwhile: a new signer, higher caps,
/// and unpausing. Lowering the caps and pausing act at once. The first signer, set while none
/// is, acts at once: no voucher can be paid before it.
contract ClaimDistributor is Owned, Pausable, ReentrancyGuard, EIP712 {
    using SafeERC20 for IERC20;

    /// @notice The shortest delay a deployment may choose.
    uint256 public constant MIN_DELAY = 1 hours;

    bytes32 public constant CLAIM_TYPEHASH =
        keccak256("Claim(address account,uint256 cumulative,uint256 deadline)");

    /// @notice The LVLX token paid.
    IERC20 public immutable token;
    /// @notice Seconds between announcing a change that raises what can leave and applying it.
    uint256 public immutable delay;
    /// @notice What one account's claims may receive in one UTC day, and what has been
    /// received: the cumulative total and the day's tally share one storage slot, so the
    /// per-account cap costs no extra write.
    struct Tally {
        uint128 claimed;
        uint32 day;
        uint96 paid;
    }

    /// The server's claim-signing address.
    address public signer;
    /// @notice The most one claim pays, LVLX base units.
    uint256 public maxPerClaim;
    /// @notice The most all claims pay in one UTC day.
    uint256 public maxPerDay;
    /// @notice What one account may receive in one UTC day.
    uint256 public maxPerAccountDay;
    mapping(address => Tally) private _tally;
    /// The UTC day the daily tally counts, and what was paid on it (one storage slot).
    uint64 public day;
    /// @notice What claims paid on `day`.
    uint192 public paidToday;
    /// A signer change waiting for its time (`signerAt` 0: none).
    address public pendingSigner;
    /// @notice When `pendingSigner` may apply (0: none waiting).
    uint256 public signerAt;
    /// A raise of the caps waiting for its time (`capsAt` 0: none).
    uint256 public pendingMaxPerClaim;
    /// @notice The raised daily cap waiting.
    uint256 public pendingMaxPerDay;
    /// @notice The raised per-account daily cap waiting.
    uint256 public pendingMaxPerAccountDay;
    /// @notice When the raise of the caps may apply (0: none waiting).
    uint256 public capsAt;
    /// When a requested unpause may apply (0: none requested).
    uint256 public unpauseAt;
    /// When the pending owner may accept ownership (0: no transfer offered).
    uint256 public ownerAt;

    event Claimed(address indexed account, uint256 amount, uint256 cumulative);
    event SignerChanged(address signer);
    event CapsChanged(uint256 maxPerClaim, uint256 maxPerDay, uint256 maxPerAccountDay);
    event SignerScheduled(address signer, uint256 at);
    event CapsScheduled(uint256 maxPerClaim, uint256 maxPerDay, uint256 maxPerAccountDay, uint256 at);
    event UnpauseScheduled(uint256 at);
    /// `what`: "signer", "caps", "unpause" or "owner".
    event ChangeCancelled(string what);

    error ClaimDistributorZeroAddress();
    error ClaimDistributorDelayTooShort(uint256 delay, uint256 min);
    error ClaimDistributorNotScheduled();
    error ClaimDistributorTooEarly(uint256 at);
    error ClaimDistributorVoucherExpired(uint256 deadline);
    error ClaimDistributorBadSignature();
    error ClaimDistributorNothingToClaim();
    error ClaimDistributorOverClaimCap(uint256 amount, uint256 cap);
    error ClaimDistributorOverDailyCap(uint256 amount, uint256 left);
    error ClaimDistributorOverAccountDailyCap(uint256 amount, uint256 left);

    /// `signer_` may be zero: then the first `setSigner` acts at once.
    /// @param token_ The LVLX token paid.
    /// @param signer_ The voucher signer; zero lets the first `setSigner` act at once.
    /// @param maxPerClaim_ The most one claim pays, LVLX base units.
    /// @param maxPerDay_ The most all claims pay in one UTC day.
    /// @param maxPerAccountDay_ The most one account receives in one UTC day.
    /// @param delay_ Seconds a raise must wait; at least `MIN_DELAY`.
    /// @param owner_ Who may pause, change the signer and the caps.
    constructor(
        IERC20 token_,
        address signer_,
        uint256 maxPerClaim_,
        uint256 maxPerDay_,
        uint256 maxPerAccountDay_,
        uint256 delay_,
        address owner_
    ) Owned(owner_) EIP712("LVLX Claims", "1") {
        if (address(token_) == address(0)) revert ClaimDistributorZeroAddress();
        if (delay_ < MIN_DELAY) revert ClaimDistributorDelayTooShort(delay_, MIN_DELAY);
        token = token_;
        delay = delay_;
        signer = signer_;
        emit SignerChanged(signer_);
        _setCaps(maxPerClaim_, maxPerDay_, maxPerAccountDay_);
    }

    /// Pays `account` what the voucher adds to what it already received. Anyone may submit it;
    /// the tokens go to `account` only.
    /// @param account Who is paid.
    /// @param cumulative Everything the account has earned, LVLX base units.
    /// @param deadline The voucher's last second.
    /// @param signature The signer's EIP-712 signature of the voucher.
    function claim(address account, uint256 cumulative, uint256 deadline, bytes calldata signature)
        external
        whenNotPaused
        nonReentrant
    {
        if (block.timestamp > deadline) revert ClaimDistributorVoucherExpired(deadline);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(CLAIM_TYPEHASH, account, cumulative, deadline)));
        if (ECDSA.recover(digest, signature) != signer) revert ClaimDistributorBadSignature();
        Tally memory mine = _tally[account];
        if (cumulative <= mine.claimed) revert ClaimDistributorNothingToClaim();
        uint256 amount = cumulative - mine.claimed;
        if (amount > maxPerClaim) revert ClaimDistributorOverClaimCap(amount, maxPerClaim);
        uint256 today = block.timestamp / 1 days;
        uint256 paid = today == day ? paidToday : 0;
        if (paid + amount > maxPerDay) revert ClaimDistributorOverDailyCap(amount, _left(maxPerDay, paid));
        uint256 own = today == mine.day ? mine.paid : 0;
        if (own + amount > maxPerAccountDay) {
            revert ClaimDistributorOverAccountDailyCap(amount, _left(maxPerAccountDay, own));
        }
        day = SafeCast.toUint64(today);
        paidToday = SafeCast.toUint192(paid + amount);
        _tally[account] = Tally({
            claimed: SafeCast.toUint128(cumulative),
            day: SafeCast.toUint32(today),
            paid: SafeCast.toUint96(own + amount)
        });
        token.safeTransfer(account, amount);
        emit Claimed(account, amount, cumulative);
    }

    /// @notice What `account` has received so far.
    /// @param account An account.
    /// @return LVLX base units.
    function claimed(address account) external view returns (uint256) {
        return _tally[account].claimed;
    }

    /// @notice The UTC day `account`'s daily tally counts, and what it received on that day.
    /// @param account An account.
    /// @return day_ The UTC day (days since the epoch).
    /// @return paid LVLX base units received that day.
    function accountDay(address account) external view returns (uint256 day_, uint256 paid) {
        Tally memory mine = _tally[account];
        return (mine.day, mine.paid);
    }

    /// The EIP-712 domain separator (chain id and this contract), for off-chain signers.
    /// @return The EIP-712 domain separator.
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice Makes `signer_` the voucher signer: at once while there is none, else after the
    /// delay (`applySigner`).
    /// @param signer_ The new signer; never zero.
    function setSigner(address signer_) external onlyOwner {
        if (signer_ == address(0)) revert ClaimDistributorZeroAddress();
        if (signer == address(0)) {
            signer = signer_;
            emit SignerChanged(signer_);
            return;
        }
        pendingSigner = signer_;
        signerAt = block.timestamp + delay;
        emit SignerScheduled(signer_, signerAt);
    }

    /// @notice Applies the signer change once its time has come.
    function applySigner() external onlyOwner {
        _due(signerAt);
        signer = pendingSigner;
        delete pendingSigner;
        delete signerAt;
        emit SignerChanged(signer);
    }

    /// @notice Drops the signer change waiting.
    function cancelSigner() external onlyOwner {
        _scheduled(signerAt);
        delete pendingSigner;
        delete signerAt;
        emit ChangeCancelled("signer");
    }

    /// @notice New caps. What lowers a cap acts at once; what raises one waits the delay
    /// (`applyCaps`). A new call replaces any raise waiting.
    /// @param maxPerClaim_ The most one claim pays, LVLX base units.
    /// @param maxPerDay_ The most all claims pay in one UTC day.
    /// @param maxPerAccountDay_ The most one account receives in one UTC day.
    function setCaps(uint256 maxPerClaim_, uint256 maxPerDay_, uint256 maxPerAccountDay_) external onlyOwner {
        bool raises = maxPerClaim_ > maxPerClaim || maxPerDay_ > maxPerDay || maxPerAccountDay_ > maxPerAccountDay;
        if (capsAt != 0) {
            delete capsAt;
            emit ChangeCancelled("caps");
        }
        uint256 claimNow = _min(maxPerClaim_, maxPerClaim);
        uint256 dayNow = _min(maxPerDay_, maxPerDay);
        uint256 accountNow = _min(maxPerAccountDay_, maxPerAccountDay);
        if (claimNow != maxPerClaim || dayNow != maxPerDay || accountNow != maxPerAccountDay) {
            _setCaps(claimNow, dayNow, accountNow);
        }
        if (raises) {
            pendingMaxPerClaim = maxPerClaim_;
            pendingMaxPerDay = maxPerDay_;
            pendingMaxPerAccountDay = maxPerAccountDay_;
            capsAt = block.timestamp + delay;
            emit CapsScheduled(maxPerClaim_, maxPerDay_, maxPerAccountDay_, capsAt);
        }
    }

    /// @notice Applies the raise of the caps once its time has come.
    function applyCaps() external onlyOwner {
        _due(capsAt);
        delete capsAt;
        _setCaps(pendingMaxPerClaim, pendingMaxPerDay, pendingMaxPerAccountDay);
    }

    /// @notice Drops the raise of the caps waiting.
    function cancelCaps() external onlyOwner {
        _scheduled(capsAt);
        delete capsAt;
        emit ChangeCancelled("caps");
    }

    /// @notice Stops claims at once, and drops a requested unpause (also while already paused:
    /// that is how a requested unpause is cancelled).
    function pause() external onlyOwner {
        if (unpauseAt != 0) {
            delete unpauseAt;
            emit ChangeCancelled("unpause");
        }
        if (!paused()) _pause();
    }

    /// @notice Asks for claims to resume after the delay (`applyUnpause`).
    function unpause() external onlyOwner whenPaused {
        unpauseAt = block.timestamp + delay;
        emit UnpauseScheduled(unpauseAt);
    }

    /// @notice Resumes claims once the requested unpause's time has come.
    function applyUnpause() external onlyOwner {
        _due(unpauseAt);
        delete unpauseAt;
        _unpause();
    }

    /// @notice Offers ownership to `newOwner`, who may accept only after the delay: whoever holds
    /// the owner key cannot take the distributor out of its owner's reach at once. The zero
    /// address withdraws the offer.
    /// @param newOwner The owner offered; zero withdraws the offer.
    function transferOwnership(address newOwner) public override onlyOwner {
        super.transferOwnership(newOwner);
        if (newOwner == address(0)) {
            delete ownerAt;
            emit ChangeCancelled("owner");
        } else {
            ownerAt = block.timestamp + delay;
        }
    }

    /// @notice Takes the ownership offered, once the delay has passed.
    function acceptOwnership() public override {
        _due(ownerAt);
        delete ownerAt;
        super.acceptOwnership();
    }

    function _setCaps(uint256 maxPerClaim_, uint256 maxPerDay_, uint256 maxPerAccountDay_) private {
        maxPerClaim = maxPerClaim_;
        maxPerDay = maxPerDay_;
        maxPerAccountDay = maxPerAccountDay_;
        emit CapsChanged(maxPerClaim_, maxPerDay_, maxPerAccountDay_);
    }

    function _min(uint256 a, uint256 b) private pure returns (uint256) {
        return a < b ? a : b;
    }

    /// What a cap leaves after `used` (nothing once a lowered cap is below it).
    function _left(uint256 cap, uint256 used) private pure returns (uint256) {
        return used >= cap ? 0 : cap - used;
    }

    function _scheduled(uint256 at) private pure {
        if (at == 0) revert ClaimDistributorNotScheduled();
    }

    function _due(uint256 at) private view {
        _scheduled(at);
        if (block.timestamp < at) revert ClaimDistributorTooEarly(at);
    }
}
