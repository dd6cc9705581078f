// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Owned} from "./Owned.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// The activation node: a one-time purchase that lets a member earn from their network. The USDT
/// price goes straight to the treasury; a wallet activates once and stays active. The owner sets
/// the price and whether the node is on sale; that never touches a node already bought.
contract ActivationNode is Owned, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice The USDT token paid with.
    IERC20 public immutable usdt;
    /// @notice Where every payment goes.
    address public immutable treasury;
    /// USDT base units.
    uint256 public price;
    /// @notice Whether nodes may be bought now.
    bool public onSale;
    /// When each wallet activated (block time, seconds); 0 = not active.
    mapping(address => uint256) public activatedAt;

    event NodeActivated(address indexed wallet, uint256 usdtPaid);
    event NodeTermsChanged(uint256 price, bool onSale);

    error ActivationNodeZeroAddress();
    error ActivationNodeZeroAmount();
    error ActivationNodeNotOnSale();
    error ActivationNodeAlreadyActive();
    error ActivationNodePriceMoved(uint256 price, uint256 maxUsdt);

    /// @param usdt_ The USDT token paid with.
    /// @param treasury_ Where every payment goes.
    /// @param price_ The first price, USDT base units.
    /// @param owner_ Who may set the terms.
    constructor(IERC20 usdt_, address treasury_, uint256 price_, address owner_) Owned(owner_) {
        if (address(usdt_) == address(0) || treasury_ == address(0)) revert ActivationNodeZeroAddress();
        if (price_ == 0) revert ActivationNodeZeroAmount();
        usdt = usdt_;
        treasury = treasury_;
        price = price_;
        onSale = true;
        emit NodeTermsChanged(price_, true);
    }

    /// Activates the caller's wallet, paying the price (at most `maxUsdt`, approved beforehand).
    /// @param maxUsdt The most USDT (base units) the buyer lets it take.
    function buy(uint256 maxUsdt) external nonReentrant {
        if (!onSale) revert ActivationNodeNotOnSale();
        if (activatedAt[msg.sender] != 0) revert ActivationNodeAlreadyActive();
        uint256 cost = price;
        if (cost > maxUsdt) revert ActivationNodePriceMoved(cost, maxUsdt);
        activatedAt[msg.sender] = block.timestamp;
        usdt.safeTransferFrom(msg.sender, treasury, cost);
        emit NodeActivated(msg.sender, cost);
    }

    /// @notice The node's price and whether it is on sale; nodes already bought are not touched.
    /// @param price_ USDT base units; never zero.
    /// @param onSale_ Whether new nodes may be bought.
    function setTerms(uint256 price_, bool onSale_) external onlyOwner {
        if (price_ == 0) revert ActivationNodeZeroAmount();
        price = price_;
        onSale = onSale_;
        emit NodeTermsChanged(price_, onSale_);
    }
}
