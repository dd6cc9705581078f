// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Owned} from "./Owned.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// Staking positions whose whole LVLX reward is reserved when they open (docs/product/staking.md).
///
/// The contract's LVLX is kept in three parts that never mix: principal staked (LvlxStaking
/// only), `reserved` (rewards promised to open positions and not yet paid) and `freeReserve`
/// (funded rewards not yet promised). A stake whose reward the free reserve cannot cover is
/// refused. The owner funds the reserve and can take back only its free part; no owner path
/// reaches principal or reserved rewards, and pausing stops new stakes only, never withdrawals.
///
/// A position's reward accrues linearly by the second from its start to its release; accrued
/// interest can be withdrawn at any time, and after the release the principal comes back with
/// the rest of the interest.
///
/// Terms changes never reach an open position, and a stake names the least reward and the latest
/// release its member accepts, so terms changed while the stake is in flight refuse it instead of
/// giving less or locking longer. Terms stay within `MAX_RATE_BPS` and `MAX_LOCK_SECONDS`.
abstract contract RewardReserve is Owned, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice The highest reward any terms may promise: 100 % of the stake's value over the lock.
    uint256 public constant MAX_RATE_BPS = 10_000;
    /// @notice The longest lock any terms may set: two years.
    uint256 public constant MAX_LOCK_SECONDS = 730 days;

    /// Terms of one NFT id or one LVLX lock tier (`kind`). `rateBps` is the reward over the whole
    /// lock in basis points of the stake's LVLX value; `lockSeconds` 0 = not offered.
    struct Terms {
        uint128 usdtValue;
        uint32 rateBps;
        uint32 lockSeconds;
    }

    struct Position {
        address owner;
        uint40 start;
        uint40 release;
        uint8 kind;
        bool closed;
        uint128 amount;
        uint128 reward;
        uint128 withdrawn;
    }

    /// @notice The LVLX token rewards are paid in.
    IERC20 public immutable lvlx;
    /// @notice Funded rewards not promised to any position yet.
    uint256 public freeReserve;
    /// @notice Rewards promised to open positions and not yet paid.
    uint256 public reserved;
    /// @notice Positions opened so far (the last id).
    uint256 public positionCount;
    /// @notice The terms of each NFT id or tier.
    mapping(uint256 => Terms) public terms;
    /// @notice Every position by id.
    mapping(uint256 => Position) public positions;

    event Staked(
        uint256 indexed position,
        address indexed owner,
        uint256 indexed kind,
        uint256 amount,
        uint256 reward,
        uint256 start,
        uint256 release
    );
    event InterestWithdrawn(uint256 indexed position, address indexed owner, uint256 amount);
    event Released(uint256 indexed position, address indexed owner, uint256 principal, uint256 interest);
    event ReserveFunded(address indexed from, uint256 amount);
    event ReserveWithdrawn(address indexed to, uint256 amount);
    event TermsChanged(uint256 indexed kind, uint256 usdtValue, uint256 rateBps, uint256 lockSeconds);

    error RewardReserveZeroAddress();
    error RewardReserveZeroAmount();
    error RewardReserveUnknownTerms(uint256 kind);
    error RewardReserveInvalidTerms();
    error RewardReserveTermsBeyondLimits(uint256 maxRateBps, uint256 maxLockSeconds);
    error RewardReserveTermsMoved(uint256 reward, uint256 minReward, uint256 release, uint256 maxRelease);
    error RewardReserveZeroReward();
    error RewardReserveReserveShort(uint256 free, uint256 needed);
    error RewardReserveNotYours(uint256 position);
    error RewardReserveAlreadyClosed(uint256 position);
    error RewardReserveNotReleased(uint256 release);
    error RewardReserveNothingToWithdraw(uint256 position);
    error RewardReserveFreeReserveShort(uint256 free, uint256 wanted);

    /// @param lvlx_ The LVLX token rewards are paid in.
    /// @param owner_ Who may set terms, pause and take back the free reserve.
    constructor(IERC20 lvlx_, address owner_) Owned(owner_) {
        if (address(lvlx_) == address(0)) revert RewardReserveZeroAddress();
        lvlx = lvlx_;
    }

    /// Whether `kind` names an NFT id or a tier this contract stakes.
    function _validKind(uint256 kind) internal pure virtual returns (bool);

    /// The whole LVLX reward of staking `amount` under `t`.
    /// @param kind The NFT id or the LVLX tier.
    /// @param amount NFTs, or LVLX base units.
    /// @return LVLX base units over the whole lock.
    function rewardFor(uint256 kind, uint256 amount) public view virtual returns (uint256);

    /// Hands a closed position's principal and its last `interest` (LVLX) back to its owner.
    function _payOut(Position memory p, uint256 interest) internal virtual;

    /// LVLX a position has earned by `at` (seconds), withdrawn or not.
    /// @param id The position.
    /// @param at Seconds since the epoch.
    /// @return LVLX base units.
    function accrued(uint256 id, uint256 at) public view returns (uint256) {
        Position memory p = positions[id];
        if (at >= p.release) return p.reward;
        if (at <= p.start) return 0;
        return (uint256(p.reward) * (at - p.start)) / (p.release - p.start);
    }

    /// LVLX the position's owner could withdraw now.
    /// @param id The position.
    /// @return LVLX base units.
    function withdrawable(uint256 id) external view returns (uint256) {
        return accrued(id, block.timestamp) - positions[id].withdrawn;
    }

    /// @notice Terms for new positions of `kind`; open positions keep theirs.
    /// @param kind The NFT id or the LVLX tier.
    /// @param usdtValue An NFT's value, USDT base units (0 for LVLX tiers).
    /// @param rateBps The reward over the whole lock, basis points of the stake's LVLX value.
    /// @param lockSeconds The lock; 0 takes the kind off offer.
    function setTerms(uint256 kind, uint128 usdtValue, uint32 rateBps, uint32 lockSeconds) external onlyOwner {
        if (!_validKind(kind)) revert RewardReserveUnknownTerms(kind);
        if (lockSeconds != 0 && rateBps == 0) revert RewardReserveInvalidTerms();
        if (rateBps > MAX_RATE_BPS || lockSeconds > MAX_LOCK_SECONDS) {
            revert RewardReserveTermsBeyondLimits(MAX_RATE_BPS, MAX_LOCK_SECONDS);
        }
        terms[kind] = Terms(usdtValue, rateBps, lockSeconds);
        emit TermsChanged(kind, usdtValue, rateBps, lockSeconds);
    }

    /// Adds `amount` LVLX (approved beforehand) to the free reserve. Anyone may fund.
    /// @param amount LVLX base units.
    function fund(uint256 amount) external nonReentrant {
        if (amount == 0) revert RewardReserveZeroAmount();
        freeReserve += amount;
        lvlx.safeTransferFrom(msg.sender, address(this), amount);
        emit ReserveFunded(msg.sender, amount);
    }

    /// @notice Counts LVLX sent here by a plain transfer (outside `fund`) as free reserve, so none
    /// is stuck: whatever the contract holds beyond principal, promised and free reserve.
    function absorbStray() external nonReentrant {
        uint256 held = lvlx.balanceOf(address(this));
        uint256 counted = _principalHeld() + reserved + freeReserve;
        if (held <= counted) revert RewardReserveZeroAmount();
        uint256 stray = held - counted;
        freeReserve += stray;
        emit ReserveFunded(address(this), stray);
    }

    /// LVLX principal the contract holds for open positions (0 where the principal is NFTs).
    function _principalHeld() internal view virtual returns (uint256);

    /// Takes back LVLX the reserve has not promised to anyone.
    /// @param to Who receives the LVLX.
    /// @param amount LVLX base units, at most the free reserve.
    function withdrawFree(address to, uint256 amount) external onlyOwner nonReentrant {
        if (amount > freeReserve) revert RewardReserveFreeReserveShort(freeReserve, amount);
        freeReserve -= amount;
        lvlx.safeTransfer(to, amount);
        emit ReserveWithdrawn(to, amount);
    }

    /// @notice Stops new stakes; withdrawals go on.
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Resumes new stakes.
    function unpause() external onlyOwner {
        _unpause();
    }

    /// Opens a position for the caller, reserving its whole reward, when the reward is at least
    /// `minReward` and the release no later than `maxRelease` (the member's quote); the child
    /// will take the principal after this returns.
    function _open(uint256 kind, uint256 amount, uint256 minReward, uint256 maxRelease)
        internal
        returns (uint256 id)
    {
        if (amount == 0) revert RewardReserveZeroAmount();
        Terms memory t = terms[kind];
        if (t.lockSeconds == 0 || !_validKind(kind)) revert RewardReserveUnknownTerms(kind);
        uint256 reward = rewardFor(kind, amount);
        if (reward == 0) revert RewardReserveZeroReward();
        uint256 releaseAt = block.timestamp + t.lockSeconds;
        if (reward < minReward || releaseAt > maxRelease) revert RewardReserveTermsMoved(reward, minReward, releaseAt, maxRelease);
        uint256 free = freeReserve;
        if (reward > free) revert RewardReserveReserveShort(free, reward);
        freeReserve = free - reward;
        reserved += reward;
        id = ++positionCount;
        positions[id] = Position({
            owner: msg.sender,
            start: SafeCast.toUint40(block.timestamp),
            release: SafeCast.toUint40(releaseAt),
            kind: SafeCast.toUint8(kind),
            closed: false,
            amount: SafeCast.toUint128(amount),
            reward: SafeCast.toUint128(reward),
            withdrawn: 0
        });
        emit Staked(id, msg.sender, kind, amount, reward, block.timestamp, releaseAt);
    }

    /// Pays the interest a position has accrued so far.
    /// @param id The caller's open position.
    function withdrawInterest(uint256 id) external nonReentrant {
        Position storage p = _mine(id);
        uint256 pay = accrued(id, block.timestamp) - p.withdrawn;
        if (pay == 0) revert RewardReserveNothingToWithdraw(id);
        p.withdrawn += SafeCast.toUint128(pay);
        reserved -= pay;
        lvlx.safeTransfer(msg.sender, pay);
        emit InterestWithdrawn(id, msg.sender, pay);
    }

    /// After the release date: the principal and the rest of the interest, and the position closes.
    /// @param id The caller's open position.
    function release(uint256 id) external nonReentrant {
        Position storage p = _mine(id);
        if (block.timestamp < p.release) revert RewardReserveNotReleased(p.release);
        uint256 pay = uint256(p.reward) - p.withdrawn;
        p.closed = true;
        p.withdrawn = p.reward;
        reserved -= pay;
        Position memory closed = p;
        _payOut(closed, pay);
        emit Released(id, msg.sender, closed.amount, pay);
    }

    function _mine(uint256 id) private view returns (Position storage p) {
        p = positions[id];
        if (p.owner != msg.sender) revert RewardReserveNotYours(id);
        if (p.closed) revert RewardReserveAlreadyClosed(id);
    }
}
