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
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// Pays the platform's off-chain rewards (commissions, rank bonuses) in LVLX against vouchers
/// the server signs after a member confirms a claim with their emailed code. A voucher names an
/// account and the CUMULATIVE amount it has earned; the contract pays that minus what the account
/// has already received, so a voucher replayed, or older than one already used, pays nothing.
/// Caps bound one claim, all accounts together and each account: what claims took from the
/// daily cap drains away at the cap's rate over 24 hours (a rolling window, not a calendar day),
/// so at any moment at most `maxPerDay` more can leave, and over any `t` seconds at most
/// `maxPerDay` plus `maxPerDay * t / 1 days`; likewise for one account under `maxPerAccountDay`.
/// No function takes tokens out except a claim to its account.
///
/// The owner's powers and their delays: pausing and lowering the caps act at once (the answer to
/// a stolen signing key). Raising the caps, unpausing and handing the contract on wait `delay`
/// seconds (fixed at deployment), announced by an event and cancellable meanwhile. A new signer
/// -- the one change that could let someone other than the members take what they are owed --
/// applies only once claims have been OPEN for the whole `delay` after its announcement: unpaused,
/// every cap at least its floor (`minPerClaim`, `minPerDay`, `minPerAccountDay`, fixed at
/// deployment) and no cap lowered, and nothing but a member's own caps holding a claim back: the
/// shared daily cap leaving room for one whole claim (`oneClaim()`, the least cap) and the
/// distributor holding the LVLX for it. Pausing, lowering a cap, claims using the shared room
/// below one whole claim, or the LVLX falling below it, start that stretch again, so members
/// always get a whole `delay` in which no claim of theirs is held back by anything but their own
/// caps, whoever else claims (accounts the owners credited themselves included), before a new
/// signer's vouchers pay -- unless the outgoing signer itself consents (`applySignerWithConsent`:
/// a stolen key replaced while claims stay paused; an owner acting without the server's key
/// cannot). Every scheduled change lapses `GRACE_PERIOD` after its time and must then be
/// announced again. The signer is set at deployment; no change of it acts at once.
contract ClaimDistributor is Owned, Pausable, ReentrancyGuard, EIP712 {
    using SafeERC20 for IERC20;

    /// @notice The shortest delay a deployment may choose.
    uint256 public constant MIN_DELAY = 1 hours;
    /// @notice How long a scheduled change stays applicable after its time; then it lapses.
    uint256 public constant GRACE_PERIOD = 14 days;
    /// @notice The least floor a deployment may choose: one whole LVLX (18 decimals).
    uint256 public constant MIN_FLOOR = 1e18;

    bytes32 public constant CLAIM_TYPEHASH =
        keccak256("Claim(address account,uint256 cumulative,uint256 deadline)");
    /// The outgoing signer's consent to the signer change announced `nonce`-th, for `at`.
    bytes32 public constant ROTATION_TYPEHASH =
        keccak256("Rotation(address newSigner,uint256 at,uint256 nonce)");

    /// @notice The LVLX token paid.
    IERC20 public immutable token;
    /// @notice Seconds between announcing a change and applying it; also how long claims must
    /// have been open before a new signer applies.
    uint256 public immutable delay;
    /// @notice The least `maxPerClaim` at which claims count as open for a signer change.
    uint256 public immutable minPerClaim;
    /// @notice The least `maxPerDay` at which claims count as open for a signer change.
    uint256 public immutable minPerDay;
    /// @notice The least `maxPerAccountDay` at which claims count as open for a signer change.
    uint256 public immutable minPerAccountDay;

    /// What one account has received in all, and what its claims took from its daily cap as of
    /// `at` (draining at the cap's rate): one storage slot, so the per-account cap costs no
    /// extra write.
    struct Tally {
        uint128 claimed;
        uint32 at;
        uint96 spent;
    }

    /// The voucher signer.
    address public signer;
    /// @notice The most one claim pays, LVLX base units.
    uint256 public maxPerClaim;
    /// @notice The most all claims pay at once; it comes back at this rate over 24 hours.
    uint256 public maxPerDay;
    /// @notice The most one account receives at once; it comes back at this rate over 24 hours.
    uint256 public maxPerAccountDay;
    mapping(address => Tally) private _tally;
    /// What claims took from `maxPerDay` and claims' open stretch: one storage slot, which a
    /// claim reads and writes once.
    struct Window {
        /// When `spent` was last counted (seconds).
        uint64 spentAt;
        /// What claims took from `maxPerDay` as of `spentAt`, draining at `maxPerDay` a day.
        uint128 spent;
        /// When claims' open stretch began as far as past claims and owner calls tell
        /// (`openSince` also waits for the shared room now); 0 while the distributor is short
        /// of one whole claim of LVLX, until that is seen to have changed (`checkFunds`, a
        /// claim, an unpause or a cap change).
        uint64 openSince;
    }
    Window private _window;
    /// A signer change waiting (`signerAt` 0: none).
    address public pendingSigner;
    /// @notice The earliest time `pendingSigner` may apply (0: none waiting); it also waits for
    /// claims to have been open for the whole delay (`openSince`).
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
    /// @notice How many signer changes have been announced: a consent names the one it is for.
    uint256 public signerNonce;

    event Claimed(address indexed account, uint256 amount, uint256 cumulative);
    event SignerChanged(address indexed signer);
    event CapsChanged(uint256 maxPerClaim, uint256 maxPerDay, uint256 maxPerAccountDay);
    event SignerScheduled(address indexed signer, uint256 at, uint256 nonce);
    event CapsScheduled(uint256 maxPerClaim, uint256 maxPerDay, uint256 maxPerAccountDay, uint256 at);
    event UnpauseScheduled(uint256 at);
    /// The owner offered may accept from `at`.
    event OwnerScheduled(address indexed owner, uint256 at);
    /// `what`: "signer", "caps", "unpause" or "owner".
    event ChangeCancelled(string what);

    error ClaimDistributorZeroAddress();
    error ClaimDistributorFloorTooLow(uint256 floor, uint256 min);
    error ClaimDistributorCapUnderFloor(uint256 cap, uint256 floor);
    error ClaimDistributorDelayTooShort(uint256 delay, uint256 min);
    error ClaimDistributorNotScheduled();
    error ClaimDistributorTooEarly(uint256 at);
    error ClaimDistributorLapsed(uint256 lapsedAt);
    error ClaimDistributorClaimsClosed();
    error ClaimDistributorVoucherExpired(uint256 deadline);
    error ClaimDistributorBadSignature();
    error ClaimDistributorNothingToClaim();
    error ClaimDistributorOverClaimCap(uint256 amount, uint256 cap);
    error ClaimDistributorOverDailyCap(uint256 amount, uint256 left);
    error ClaimDistributorOverAccountDailyCap(uint256 amount, uint256 left);

    /// @param token_ The LVLX token paid.
    /// @param signer_ The voucher signer; never zero.
    /// @param maxPerClaim_ The most one claim pays, LVLX base units.
    /// @param maxPerDay_ The most all claims pay at once (refilling over 24 hours).
    /// @param maxPerAccountDay_ The most one account receives at once (refilling over 24 hours).
    /// @param minPerClaim_ The floor of `maxPerClaim` for claims to count as open; at least
    /// `MIN_FLOOR`, and `maxPerClaim_` at least it.
    /// @param minPerDay_ The floor of `maxPerDay` for claims to count as open; likewise.
    /// @param minPerAccountDay_ The floor of `maxPerAccountDay` for claims to count as open;
    /// likewise.
    /// @param delay_ Seconds a change must wait; at least `MIN_DELAY`.
    /// @param owner_ Who may pause, change the signer and the caps.
    constructor(
        IERC20 token_,
        address signer_,
        uint256 maxPerClaim_,
        uint256 maxPerDay_,
        uint256 maxPerAccountDay_,
        uint256 minPerClaim_,
        uint256 minPerDay_,
        uint256 minPerAccountDay_,
        uint256 delay_,
        address owner_
    ) Owned(owner_) EIP712("LVLX Claims", "1") {
        if (address(token_) == address(0) || signer_ == address(0)) revert ClaimDistributorZeroAddress();
        if (delay_ < MIN_DELAY) revert ClaimDistributorDelayTooShort(delay_, MIN_DELAY);
        _floor(maxPerClaim_, minPerClaim_);
        _floor(maxPerDay_, minPerDay_);
        _floor(maxPerAccountDay_, minPerAccountDay_);
        token = token_;
        delay = delay_;
        minPerClaim = minPerClaim_;
        minPerDay = minPerDay_;
        minPerAccountDay = minPerAccountDay_;
        signer = signer_;
        emit SignerChanged(signer_);
        _setCaps(maxPerClaim_, maxPerDay_, maxPerAccountDay_);
        _restart();
    }

    /// Pays `account` what the voucher adds to what it already received. Anyone may submit it;
    /// the tokens go to `account` only. A voucher above a cap reverts whole: paying in parts is
    /// the signer's (the server signs what the caps leave now).
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
        {
            bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(CLAIM_TYPEHASH, account, cumulative, deadline)));
            if (ECDSA.recover(digest, signature) != signer) revert ClaimDistributorBadSignature();
        }
        Tally memory mine = _tally[account];
        if (cumulative <= mine.claimed) revert ClaimDistributorNothingToClaim();
        uint256 amount = cumulative - mine.claimed;
        if (amount > maxPerClaim) revert ClaimDistributorOverClaimCap(amount, maxPerClaim);
        (uint256 dayCap, uint256 accountCap) = (maxPerDay, maxPerAccountDay);
        Window memory window = _window;
        uint256 all = _drained(window.spent, window.spentAt, dayCap);
        if (amount > _left(dayCap, all)) revert ClaimDistributorOverDailyCap(amount, _left(dayCap, all));
        uint256 own = _drained(mine.spent, mine.at, accountCap);
        if (amount > _left(accountCap, own)) {
            revert ClaimDistributorOverAccountDailyCap(amount, _left(accountCap, own));
        }
        _window = Window({
            spentAt: SafeCast.toUint64(block.timestamp),
            spent: SafeCast.toUint128(all + amount),
            openSince: _stretch(window, amount, Math.min(maxPerClaim, Math.min(dayCap, accountCap)), dayCap)
        });
        _tally[account] = Tally({
            claimed: SafeCast.toUint128(cumulative),
            at: SafeCast.toUint32(block.timestamp),
            spent: SafeCast.toUint96(own + amount)
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

    /// @notice What all claims together may take now under `maxPerDay`.
    /// @return LVLX base units.
    function room() external view returns (uint256) {
        Window memory window = _window;
        return _left(maxPerDay, _drained(window.spent, window.spentAt, maxPerDay));
    }

    /// @notice When what claims took from `maxPerDay` was last counted (`spent`).
    /// @return Seconds since the epoch.
    function spentAt() external view returns (uint256) {
        return _window.spentAt;
    }

    /// @notice What claims took from `maxPerDay` as of `spentAt`, draining at `maxPerDay` a day.
    /// @return LVLX base units.
    function spent() external view returns (uint256) {
        return _window.spent;
    }

    /// @notice What `account` may receive now under `maxPerAccountDay` (the other caps aside).
    /// @param account An account.
    /// @return LVLX base units.
    function accountRoom(address account) external view returns (uint256) {
        Tally memory mine = _tally[account];
        return _left(maxPerAccountDay, _drained(mine.spent, mine.at, maxPerAccountDay));
    }

    /// @notice Since when claims have been open -- unpaused, every cap at least its floor and
    /// none lowered since, the shared daily cap leaving room for one whole claim and the LVLX
    /// for it here -- or 0 while they are not. A new signer applies only once this is `delay`
    /// old (and its own time has come).
    /// @return Seconds since the epoch; 0 while claims are closed.
    function openSince() public view returns (uint256) {
        Window memory window = _window;
        uint256 since = window.openSince;
        if (since == 0 || paused() || !_atFloors()) return 0;
        uint256 one = oneClaim();
        if (token.balanceOf(address(this)) < one) return 0;
        uint256 back = _roomBack(window.spent, window.spentAt, one, maxPerDay);
        if (back > block.timestamp) return 0;
        return Math.max(since, back);
    }

    /// @notice One whole claim: the least of the caps. Claims count as open only while the
    /// shared daily cap leaves at least this and the distributor holds it.
    /// @return LVLX base units.
    function oneClaim() public view returns (uint256) {
        return Math.min(maxPerClaim, Math.min(maxPerDay, maxPerAccountDay));
    }

    /// @notice Starts claims' open stretch now if the distributor was short of one whole claim
    /// of LVLX and holds it again (LVLX sent with a plain transfer is seen here, or at the next
    /// claim). Anyone may call it.
    function checkFunds() external {
        if (_window.openSince == 0 && _funded()) _window.openSince = uint64(block.timestamp);
    }

    /// The EIP-712 domain separator (chain id and this contract), for off-chain signers.
    /// @return The EIP-712 domain separator.
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice Announces `signer_` as the next voucher signer (`applySigner`, once claims have
    /// been open for the whole delay after this), replacing any change waiting.
    /// @param signer_ The new signer; never zero.
    function setSigner(address signer_) external onlyOwner {
        if (signer_ == address(0)) revert ClaimDistributorZeroAddress();
        if (signerAt != 0) emit ChangeCancelled("signer");
        pendingSigner = signer_;
        signerAt = block.timestamp + delay;
        emit SignerScheduled(signer_, signerAt, ++signerNonce);
    }

    /// @notice Applies the signer change once its time has come and claims have been open for
    /// the whole delay (unpaused, caps at their floors or above, none lowered), within the grace
    /// period.
    function applySigner() external onlyOwner {
        _due(signerAt);
        uint256 since = openSince();
        if (since == 0) revert ClaimDistributorClaimsClosed();
        if (block.timestamp < since + delay) revert ClaimDistributorTooEarly(since + delay);
        _applySigner();
    }

    /// @notice Applies the signer change once its time has come, within the grace period, with
    /// the outgoing signer's consent instead of a stretch of open claims: how a stolen signing
    /// key is replaced while claims stay paused. Only the outgoing key can consent, so an owner
    /// acting without the server cannot skip members' stretch.
    /// @param consent The outgoing signer's EIP-712 signature of
    /// `Rotation(pendingSigner, signerAt, signerNonce)`: this very announcement.
    function applySignerWithConsent(bytes calldata consent) external onlyOwner {
        _due(signerAt);
        bytes32 digest =
            _hashTypedDataV4(keccak256(abi.encode(ROTATION_TYPEHASH, pendingSigner, signerAt, signerNonce)));
        if (ECDSA.recover(digest, consent) != signer) revert ClaimDistributorBadSignature();
        _applySigner();
    }

    /// @notice Drops the signer change waiting.
    function cancelSigner() external onlyOwner {
        _scheduled(signerAt);
        delete pendingSigner;
        delete signerAt;
        emit ChangeCancelled("signer");
    }

    /// @notice New caps. What lowers a cap acts at once (and claims' open stretch starts again);
    /// what raises one waits the delay (`applyCaps`). A new call replaces any raise waiting.
    /// @param maxPerClaim_ The most one claim pays, LVLX base units.
    /// @param maxPerDay_ The most all claims pay at once (refilling over 24 hours).
    /// @param maxPerAccountDay_ The most one account receives at once (refilling over 24 hours).
    function setCaps(uint256 maxPerClaim_, uint256 maxPerDay_, uint256 maxPerAccountDay_) external onlyOwner {
        bool raises = maxPerClaim_ > maxPerClaim || maxPerDay_ > maxPerDay || maxPerAccountDay_ > maxPerAccountDay;
        if (capsAt != 0) {
            delete capsAt;
            emit ChangeCancelled("caps");
        }
        uint256 claimNow = Math.min(maxPerClaim_, maxPerClaim);
        uint256 dayNow = Math.min(maxPerDay_, maxPerDay);
        uint256 accountNow = Math.min(maxPerAccountDay_, maxPerAccountDay);
        if (claimNow != maxPerClaim || dayNow != maxPerDay || accountNow != maxPerAccountDay) {
            _setCaps(claimNow, dayNow, accountNow);
            _restart();
        }
        if (raises) {
            pendingMaxPerClaim = maxPerClaim_;
            pendingMaxPerDay = maxPerDay_;
            pendingMaxPerAccountDay = maxPerAccountDay_;
            capsAt = block.timestamp + delay;
            emit CapsScheduled(maxPerClaim_, maxPerDay_, maxPerAccountDay_, capsAt);
        }
    }

    /// @notice Applies the raise of the caps once its time has come, within the grace period.
    function applyCaps() external onlyOwner {
        _due(capsAt);
        delete capsAt;
        bool wasUnderFloors = !_atFloors();
        // What the old caps' shared room says up to now: a stretch it had closed starts again
        // no earlier than its room came back, or now.
        Window memory window = _window;
        uint256 since = window.openSince;
        if (since != 0 && maxPerDay != 0) {
            uint256 back = _roomBack(window.spent, window.spentAt, oneClaim(), maxPerDay);
            since = Math.max(since, Math.min(back, block.timestamp));
        }
        _setCaps(pendingMaxPerClaim, pendingMaxPerDay, pendingMaxPerAccountDay);
        // Caps back at their floors open claims, as does LVLX seen now: the open stretch starts
        // now; a whole claim more than the LVLX here closes them.
        if (!_funded()) since = 0;
        else if (wasUnderFloors || since == 0) since = block.timestamp;
        _window.openSince = uint64(since);
    }

    /// @notice Drops the raise of the caps waiting.
    function cancelCaps() external onlyOwner {
        _scheduled(capsAt);
        delete capsAt;
        emit ChangeCancelled("caps");
    }

    /// @notice Stops claims at once, and drops a requested unpause (also while already paused:
    /// that is how a requested unpause is cancelled). A signer change then waits for claims to
    /// have been open again for the whole delay.
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

    /// @notice Resumes claims once the requested unpause's time has come, within the grace
    /// period; claims' open stretch starts now.
    function applyUnpause() external onlyOwner {
        _due(unpauseAt);
        delete unpauseAt;
        _unpause();
        _restart();
    }

    /// @notice Offers ownership to `newOwner`, who may accept only after the delay (and within
    /// the grace period): whoever holds the owner key cannot take the distributor out of its
    /// owner's reach at once. The zero address withdraws the offer.
    /// @param newOwner The owner offered; zero withdraws the offer.
    function transferOwnership(address newOwner) public override onlyOwner {
        super.transferOwnership(newOwner);
        if (newOwner == address(0)) {
            delete ownerAt;
            emit ChangeCancelled("owner");
        } else {
            ownerAt = block.timestamp + delay;
            emit OwnerScheduled(newOwner, ownerAt);
        }
    }

    /// @notice Takes the ownership offered, once the delay has passed and before it lapses.
    function acceptOwnership() public override {
        _due(ownerAt);
        delete ownerAt;
        super.acceptOwnership();
    }

    function _applySigner() private {
        signer = pendingSigner;
        delete pendingSigner;
        delete signerAt;
        emit SignerChanged(signer);
    }

    function _setCaps(uint256 maxPerClaim_, uint256 maxPerDay_, uint256 maxPerAccountDay_) private {
        maxPerClaim = maxPerClaim_;
        maxPerDay = maxPerDay_;
        maxPerAccountDay = maxPerAccountDay_;
        emit CapsChanged(maxPerClaim_, maxPerDay_, maxPerAccountDay_);
    }

    /// Whether every cap is at least its floor.
    function _atFloors() private view returns (bool) {
        return maxPerClaim >= minPerClaim && maxPerDay >= minPerDay && maxPerAccountDay >= minPerAccountDay;
    }

    /// Claims' open stretch after a claim of `amount` from `window` (`one` whole claim, `day`
    /// the daily cap): closed when it leaves less than one whole claim of LVLX, open from now
    /// when LVLX was short before, else from when the shared room last came back to one whole
    /// claim, if later (the state the claim replaces is gone after it).
    function _stretch(Window memory window, uint256 amount, uint256 one, uint256 day) private view returns (uint64) {
        uint256 since = window.openSince;
        if (token.balanceOf(address(this)) < amount + one) return 0;
        if (since == 0) return uint64(block.timestamp);
        uint256 back = _roomBack(window.spent, window.spentAt, one, day);
        return uint64(back > since && back <= block.timestamp ? back : since);
    }

    /// Whether the distributor holds one whole claim of LVLX.
    function _funded() private view returns (bool) {
        return token.balanceOf(address(this)) >= oneClaim();
    }

    /// Claims' open stretch starts again now, or is closed until LVLX is seen (see `_openSince`).
    function _restart() private {
        _window.openSince = _funded() ? uint64(block.timestamp) : 0;
    }

    /// When the shared room, `used` as of `at`, is back to `one` whole claim under the daily
    /// cap `day`: 0 when it never fell under it. The room only grows between claims, so after
    /// this time it stays at least `one` until the next claim.
    function _roomBack(uint256 used, uint256 at, uint256 one, uint256 day) private pure returns (uint256) {
        if (used + one <= day) return 0;
        // `_drained` gives back floor(day * elapsed / 1 days): enough once elapsed reaches this.
        uint256 wait = Math.mulDiv(used + one - day, 1 days, day, Math.Rounding.Ceil);
        return at + Math.min(wait, 1 days);
    }

    /// A floor of at least `MIN_FLOOR` and a cap at least its floor.
    function _floor(uint256 cap, uint256 floor) private pure {
        if (floor < MIN_FLOOR) revert ClaimDistributorFloorTooLow(floor, MIN_FLOOR);
        if (cap < floor) revert ClaimDistributorCapUnderFloor(cap, floor);
    }

    /// What `used` (counted at `at`) is now that it has drained at `cap` per day since.
    function _drained(uint256 used, uint256 at, uint256 cap) private view returns (uint256) {
        uint256 elapsed = block.timestamp - at;
        if (elapsed >= 1 days) return 0;
        // Rounded down: what drains is never more than the rate gives back.
        uint256 drop = Math.mulDiv(cap, elapsed, 1 days);
        return used > drop ? used - drop : 0;
    }

    /// What a cap leaves after `used` (nothing once a lowered cap is below it).
    function _left(uint256 cap, uint256 used) private pure returns (uint256) {
        return used >= cap ? 0 : cap - used;
    }

    function _scheduled(uint256 at) private pure {
        if (at == 0) revert ClaimDistributorNotScheduled();
    }

    /// A scheduled change whose time has come and that has not lapsed.
    function _due(uint256 at) private view {
        _scheduled(at);
        if (block.timestamp < at) revert ClaimDistributorTooEarly(at);
        if (block.timestamp >= at + GRACE_PERIOD) revert ClaimDistributorLapsed(at + GRACE_PERIOD);
    }
}
