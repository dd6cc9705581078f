// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// Stand-in for Polygon's USDT on the development chain and in tests only: 6 decimals and an
/// open faucet. Production configuration points at the real USDT.
contract MockUSDT is ERC20 {
    constructor() ERC20("Tether USD (dev)", "USDT") {}

    /// @return 6, as Polygon's USDT.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice The development faucet: anyone may mint.
    /// @param to Who receives the USDT.
    /// @param amount USDT base units.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
