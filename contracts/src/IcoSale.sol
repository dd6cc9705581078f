// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Owned} from "./Owned.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// The ICO sale: buy LVLX with USDT at the owner's price.
///
/// Buyers' funds never rest here: the USDT paid goes straight to the treasury fixed at deployment
/// and the LVLX bought straight to the buyer, in the same transaction. The owner may change the
/// price (a buyer's `minLvlx` bounds what that can do to a purchase in flight), pause sales and
/// take back unsold LVLX; nothing else.
contract IcoSale is Owned, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice The USDT token paid with.
    IERC20 public immutable usdt;
    /// @notice The LVLX token sold.
    IERC20 public immutable lvlx;
    /// @notice Where every payment goes.
    address public immutable treasury;
    /// USDT base units for one whole LVLX (10^18 base units); 100000 = 0.1 USDT.
    uint256 public price;

    event Purchased(address indexed buyer, uint256 usdtPaid, uint256 lvlxBought, address indexed referrer);
    event PriceChanged(uint256 price);
    event UnsoldWithdrawn(address indexed to, uint256 amount);

    error IcoSaleZeroAddress();
    error IcoSaleInvalidPrice();
    error IcoSaleZeroAmount();
    error IcoSaleSelfReferral();
    error IcoSalePriceMoved(uint256 lvlxAmount, uint256 minLvlx);
    error IcoSaleSoldOut(uint256 available, uint256 wanted);

    /// @param usdt_ The USDT token paid with.
    /// @param lvlx_ The LVLX token sold.
    /// @param treasury_ Where every payment goes.
    /// @param price_ USDT base units for one whole LVLX.
    /// @param owner_ Who may set the price, pause and take back unsold LVLX.
    constructor(IERC20 usdt_, IERC20 lvlx_, address treasury_, uint256 price_, address owner_) Owned(owner_) {
        if (address(usdt_) == address(0) || address(lvlx_) == address(0) || treasury_ == address(0)) {
            revert IcoSaleZeroAddress();
        }
        if (price_ == 0) revert IcoSaleInvalidPrice();
        usdt = usdt_;
        lvlx = lvlx_;
        treasury = treasury_;
        price = price_;
        emit PriceChanged(price_);
    }

    /// LVLX base units `usdtAmount` buys at the current price (rounded down).
    /// @param usdtAmount USDT base units paid.
    /// @return LVLX base units bought.
    function quote(uint256 usdtAmount) public view returns (uint256) {
        return (usdtAmount * 1e18) / price;
    }

    /// Pays `usdtAmount` (approved beforehand) and receives at least `minLvlx` LVLX. `referrer`
    /// is recorded in the event; zero for none, never the buyer.
    /// @param usdtAmount USDT base units paid.
    /// @param minLvlx The least LVLX (base units) the buyer accepts.
    /// @param referrer The buyer's sponsor's wallet, or zero.
    /// @return lvlxAmount LVLX base units bought.
    function buy(uint256 usdtAmount, uint256 minLvlx, address referrer)
        external
        whenNotPaused
        nonReentrant
        returns (uint256 lvlxAmount)
    {
        if (referrer == msg.sender) revert IcoSaleSelfReferral();
        lvlxAmount = quote(usdtAmount);
        if (lvlxAmount == 0) revert IcoSaleZeroAmount();
        if (lvlxAmount < minLvlx) revert IcoSalePriceMoved(lvlxAmount, minLvlx);
        uint256 available = lvlx.balanceOf(address(this));
        if (available < lvlxAmount) revert IcoSaleSoldOut(available, lvlxAmount);
        usdt.safeTransferFrom(msg.sender, treasury, usdtAmount);
        lvlx.safeTransfer(msg.sender, lvlxAmount);
        emit Purchased(msg.sender, usdtAmount, lvlxAmount, referrer);
    }

    /// @notice A new price for purchases from now on.
    /// @param price_ USDT base units for one whole LVLX; never zero.
    function setPrice(uint256 price_) external onlyOwner {
        if (price_ == 0) revert IcoSaleInvalidPrice();
        price = price_;
        emit PriceChanged(price_);
    }

    /// @notice Stops new purchases.
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Resumes purchases.
    function unpause() external onlyOwner {
        _unpause();
    }

    /// Unsold LVLX back to the owner's choice of address. Only this sale's own stock: bought
    /// LVLX is already in its buyers' wallets.
    /// @param to Who receives the LVLX.
    /// @param amount LVLX base units.
    function withdrawUnsold(address to, uint256 amount) external onlyOwner {
        lvlx.safeTransfer(to, amount);
        emit UnsoldWithdrawn(to, amount);
    }
}
