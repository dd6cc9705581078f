// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";

/// @title Owned
/// @notice Ownership that moves in two steps (the new owner must accept) and can never be
/// renounced: a contract without an owner would strand what only an owner can do, such as
/// unpausing claims or taking back a staking contract's free reserve.
abstract contract Owned is Ownable2Step {
    error OwnedRenounceDisabled();

    /// @param owner_ The first owner.
    constructor(address owner_) Ownable(owner_) {}

    /// @notice Always reverts: every contract keeps an owner.
    function renounceOwnership() public pure override {
        revert OwnedRenounceDisabled();
    }
}
