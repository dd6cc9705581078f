// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC1155Supply} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Supply.sol";
import {ERC1155URIStorage} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155URIStorage.sol";
import {Owned} from "./Owned.sol";
import {ILevelNFT} from "./ILevelNFT.sol";

/// The platform's NFTs: ERC1155 ids 1 to 11 with supply tracking and a metadata URI per id.
///
/// Only minters the owner names (the NFT sale) create NFTs; nobody, the owner included, can move
/// or burn a holder's NFTs.
contract LevelNFT is ERC1155Supply, ERC1155URIStorage, Owned, ILevelNFT {
    /// @inheritdoc ILevelNFT
    uint256 public constant override FIRST_ID = 1;
    /// @inheritdoc ILevelNFT
    uint256 public constant override LAST_ID = 11;

    /// @notice Whether an account may mint (the NFT sale).
    mapping(address => bool) public minter;

    event MinterChanged(address indexed account, bool allowed);

    error LevelNFTUnknownId(uint256 id);
    error LevelNFTNotMinter(address account);

    /// `uri_` is the ERC1155 URI template (`{id}` replaced by clients); `setURI` overrides one id.
    /// @param uri_ The ERC1155 URI template.
    /// @param owner_ Who may name minters and set URIs.
    constructor(string memory uri_, address owner_) ERC1155(uri_) Owned(owner_) {}

    /// @notice Lets `account` mint, or stops it.
    /// @param account The minter (the NFT sale).
    /// @param allowed Whether it may mint.
    function setMinter(address account, bool allowed) external onlyOwner {
        minter[account] = allowed;
        emit MinterChanged(account, allowed);
    }

    /// @notice The metadata URI of one id.
    /// @param id The NFT id (1 to 11).
    /// @param tokenURI Its URI.
    function setURI(uint256 id, string calldata tokenURI) external onlyOwner {
        if (id < FIRST_ID || id > LAST_ID) revert LevelNFTUnknownId(id);
        _setURI(id, tokenURI);
    }

    /// @notice Creates NFTs; only for the minters the owner names.
    /// @param to Who receives them.
    /// @param id The NFT id (1 to 11).
    /// @param quantity How many.
    function mint(address to, uint256 id, uint256 quantity) external override {
        if (!minter[msg.sender]) revert LevelNFTNotMinter(msg.sender);
        if (id < FIRST_ID || id > LAST_ID) revert LevelNFTUnknownId(id);
        _mint(to, id, quantity, "");
    }

    /// @param id The NFT id.
    /// @return Its metadata URI.
    function uri(uint256 id) public view override(ERC1155, ERC1155URIStorage) returns (string memory) {
        return ERC1155URIStorage.uri(id);
    }

    function _update(address from, address to, uint256[] memory ids, uint256[] memory values)
        internal
        override(ERC1155, ERC1155Supply)
    {
        ERC1155Supply._update(from, to, ids, values);
    }
}
