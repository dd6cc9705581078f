// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {RewardReserve} from "./RewardReserve.sol";

/// Stakes LVLX in lock tiers for an LVLX reward of amount × the tier's rate. Staked principal is
/// counted apart (`totalStaked`) and is never reward budget: only `fund` adds to the reserve.
contract LvlxStaking is RewardReserve {
    using SafeERC20 for IERC20;

    /// @notice The highest lock tier.
    uint256 public constant MAX_TIER = 8;
    /// @notice LVLX principal of open positions, never reward budget.
    uint256 public totalStaked;

    /// @param lvlx_ The LVLX token staked and paid.
    /// @param owner_ Who may set terms, pause and take back the free reserve.
    constructor(IERC20 lvlx_, address owner_) RewardReserve(lvlx_, owner_) {}

    function _validKind(uint256 kind) internal pure override returns (bool) {
        return kind >= 1 && kind <= MAX_TIER;
    }

    /// @param kind The lock tier.
    /// @param amount LVLX base units staked.
    /// @return LVLX base units over the whole lock.
    function rewardFor(uint256 kind, uint256 amount) public view override returns (uint256) {
        return (amount * terms[kind].rateBps) / 10_000;
    }

    /// Stakes `amount` LVLX (approved beforehand) in lock tier `tier` for at least `minReward` LVLX,
    /// released no later than `maxRelease` (seconds).
    /// @param tier The lock tier (1 to 8).
    /// @param amount LVLX base units.
    /// @param minReward The least reward (LVLX base units) the member accepts.
    /// @param maxRelease The latest release (seconds) the member accepts.
    /// @return position The new position.
    function stake(uint256 tier, uint256 amount, uint256 minReward, uint256 maxRelease)
        external
        whenNotPaused
        nonReentrant
        returns (uint256 position)
    {
        position = _open(tier, amount, minReward, maxRelease);
        totalStaked += amount;
        lvlx.safeTransferFrom(msg.sender, address(this), amount);
    }

    function _principalHeld() internal view override returns (uint256) {
        return totalStaked;
    }

    /// Principal and interest in one transfer.
    function _payOut(Position memory p, uint256 interest) internal override {
        totalStaked -= p.amount;
        lvlx.safeTransfer(p.owner, uint256(p.amount) + interest);
    }
}
