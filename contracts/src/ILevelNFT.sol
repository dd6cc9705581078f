// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title ILevelNFT
/// @notice What the NFT sale calls on the LevelNFT contract.
interface ILevelNFT {
    /// @notice The first and last NFT ids.
    function FIRST_ID() external view returns (uint256);
    function LAST_ID() external view returns (uint256);

    /// @notice Mints `quantity` NFTs of `id` to `to`; only for the minters the owner names.
    function mint(address to, uint256 id, uint256 quantity) external;
}
