// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// The LVLX token: a plain ERC20 with 18 decimals and a fixed supply minted once to `holder`.
contract LVLX is ERC20 {
    /// @param holder Who receives the whole supply.
    /// @param supply LVLX base units.
    constructor(address holder, uint256 supply) ERC20("LVLX", "LVLX") {
        _mint(holder, supply);
    }
}
