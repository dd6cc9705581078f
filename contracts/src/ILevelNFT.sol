// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title ILevelNFT
/// @notice What the NFT sale calls on the LevelNFT contract.
interface ILevelNFT {
    /// @notice The first NFT id.
    /// @return The first NFT id.
    function FIRST_ID() external view returns (uint256);
    /// @notice The last NFT id.
    /// @return The last NFT id.
    function LAST_ID() external view returns (uint256);

    /// @notice Mints `quantity` NFTs of `id` to `to`; only for the minters the owner names.
    /// @param to Who receives them.
    /// @param id The NFT id.
    /// @param quantity How many.
    function mint(address to, uint256 id, uint256 quantity) external;
}
