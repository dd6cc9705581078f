// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC1155} from "@openzeppelin/contracts/token/ERC1155/IERC1155.sol";
import {IERC1155Receiver} from "@openzeppelin/contracts/token/ERC1155/IERC1155Receiver.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {RewardReserve} from "./RewardReserve.sol";

/// Stakes LevelNFTs of one id per position for an LVLX reward: per id a USDT value, a rate and a
/// lock. The reward of `n` NFTs is n × value × 10 LVLX per USDT (1 LVLX = 0.1 USDT) × rate.
///
/// NFTs arrive only through `stake`: a plain transfer to this contract is refused, so nothing
/// can end up here without a position that gives it back.
contract NftStaking is RewardReserve, IERC1155Receiver {
    using SafeERC20 for IERC20;

    /// @notice The LevelNFT contract staked.
    IERC1155 public immutable nft;

    error NftStakingNotAccepted();

    /// @param lvlx_ The LVLX token rewards are paid in.
    /// @param nft_ The LevelNFT contract staked.
    /// @param owner_ Who may set terms, pause and take back the free reserve.
    constructor(IERC20 lvlx_, IERC1155 nft_, address owner_) RewardReserve(lvlx_, owner_) {
        if (address(nft_) == address(0)) revert RewardReserveZeroAddress();
        nft = nft_;
    }

    function _validKind(uint256 kind) internal pure override returns (bool) {
        return kind >= 1 && kind <= 11;
    }

    /// @param kind The NFT id.
    /// @param amount How many NFTs.
    /// @return LVLX base units over the whole lock.
    function rewardFor(uint256 kind, uint256 amount) public view override returns (uint256) {
        Terms memory t = terms[kind];
        // USDT base units (6 decimals) to LVLX base units (18) at 0.1 USDT per LVLX: × 10^13.
        return (amount * t.usdtValue * 1e13 * t.rateBps) / 10_000;
    }

    /// Stakes `quantity` NFTs of `id` (this contract approved with setApprovalForAll) for at least
    /// `minReward` LVLX, released no later than `maxRelease` (seconds).
    /// @param id The NFT id.
    /// @param quantity How many NFTs.
    /// @param minReward The least reward (LVLX base units) the member accepts.
    /// @param maxRelease The latest release (seconds) the member accepts.
    /// @return position The new position.
    function stake(uint256 id, uint256 quantity, uint256 minReward, uint256 maxRelease)
        external
        whenNotPaused
        nonReentrant
        returns (uint256 position)
    {
        position = _open(id, quantity, minReward, maxRelease);
        nft.safeTransferFrom(msg.sender, address(this), id, quantity, "");
    }

    function _principalHeld() internal pure override returns (uint256) {
        return 0;
    }

    function _payOut(Position memory p, uint256 interest) internal override {
        if (interest > 0) lvlx.safeTransfer(p.owner, interest);
        nft.safeTransferFrom(address(this), p.owner, p.kind, p.amount, "");
    }

    /// @notice Accepts only the NFTs `stake` moves here.
    /// @param operator Who moved them; only this contract.
    /// @return The ERC1155 acceptance selector.
    function onERC1155Received(address operator, address, uint256, uint256, bytes calldata)
        external
        view
        returns (bytes4)
    {
        if (msg.sender != address(nft) || operator != address(this)) revert NftStakingNotAccepted();
        return this.onERC1155Received.selector;
    }

    /// @notice Refuses every batch: NFTs arrive only through `stake`.
    /// @return Never returns.
    function onERC1155BatchReceived(address, address, uint256[] calldata, uint256[] calldata, bytes calldata)
        external
        pure
        returns (bytes4)
    {
        revert NftStakingNotAccepted();
    }

    /// @param interfaceId An ERC165 interface id.
    /// @return Whether it is ERC1155Receiver or ERC165.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC1155Receiver).interfaceId || interfaceId == type(IERC165).interfaceId;
    }
}
