// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Owned} from "./Owned.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {ILevelNFT} from "./ILevelNFT.sol";

/// Sells LevelNFTs for USDT at a per-id price the owner sets. As in the ICO sale, the USDT paid
/// goes straight to the treasury and the NFTs straight to the buyer, in one transaction.
contract NftSale is Owned, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice The USDT token paid with.
    IERC20 public immutable usdt;
    /// @notice The LevelNFT contract this sale mints on.
    ILevelNFT public immutable nft;
    /// @notice Where every payment goes.
    address public immutable treasury;
    /// USDT base units per NFT of an id; 0 = not on sale.
    mapping(uint256 => uint256) public price;

    event NftPurchased(address indexed buyer, uint256 indexed id, uint256 quantity, uint256 usdtPaid);
    event NftPriceChanged(uint256 indexed id, uint256 price);

    error NftSaleZeroAddress();
    error NftSaleZeroAmount();
    error NftSaleNotForSale(uint256 id);
    error NftSaleUnknownId(uint256 id);
    error NftSalePriceMoved(uint256 cost, uint256 maxUsdt);

    /// @param usdt_ The USDT token paid with.
    /// @param nft_ The LevelNFT contract this sale mints on.
    /// @param treasury_ Where every payment goes.
    /// @param owner_ Who may set prices and pause.
    constructor(IERC20 usdt_, ILevelNFT nft_, address treasury_, address owner_) Owned(owner_) {
        if (address(usdt_) == address(0) || address(nft_) == address(0) || treasury_ == address(0)) {
            revert NftSaleZeroAddress();
        }
        usdt = usdt_;
        nft = nft_;
        treasury = treasury_;
    }

    /// Buys `quantity` NFTs of `id`, paying at most `maxUsdt` (approved beforehand).
    /// @param id The NFT id (1 to 11).
    /// @param quantity How many.
    /// @param maxUsdt The most USDT (base units) the buyer lets it take.
    function buy(uint256 id, uint256 quantity, uint256 maxUsdt) external whenNotPaused nonReentrant {
        uint256 each = price[id];
        if (each == 0) revert NftSaleNotForSale(id);
        if (quantity == 0) revert NftSaleZeroAmount();
        uint256 cost = each * quantity;
        if (cost > maxUsdt) revert NftSalePriceMoved(cost, maxUsdt);
        usdt.safeTransferFrom(msg.sender, treasury, cost);
        nft.mint(msg.sender, id, quantity);
        emit NftPurchased(msg.sender, id, quantity, cost);
    }

    /// @notice The price of one NFT of `id` from now on; 0 takes it off sale.
    /// @param id The NFT id (1 to 11).
    /// @param price_ USDT base units.
    function setPrice(uint256 id, uint256 price_) external onlyOwner {
        if (id < nft.FIRST_ID() || id > nft.LAST_ID()) revert NftSaleUnknownId(id);
        price[id] = price_;
        emit NftPriceChanged(id, price_);
    }

    /// @notice Stops new purchases.
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Resumes purchases.
    function unpause() external onlyOwner {
        _unpause();
    }
}
