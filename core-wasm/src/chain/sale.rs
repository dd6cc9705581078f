//! The sale's price arithmetic: the same integer rule the contract applies.

use crate::amount::Units;
use crate::LVLX_DECIMALS;

/// The sale's default price: USDT base units per whole LVLX (1 LVLX = 0.1 USDT,
/// docs/product/money.md#price).
pub const DEFAULT_PRICE: Units = 100_000;

pub(crate) const LVLX_ONE: Units = 10u128.pow(LVLX_DECIMALS);

/// LVLX base units `usdt` base units buy at `price` (USDT base units per whole LVLX), rounded
/// down: the contract's `quote`. `None` for a zero price or overflow.
pub fn quote(usdt: Units, price: Units) -> Option<Units> {
    usdt.checked_mul(LVLX_ONE)?.checked_div(price)
}

/// The least USDT (base units) that buys at least `lvlx` at `price`: rounded up, so that
/// `quote(usdt_for(x)) >= x`. `None` for a zero price or overflow.
pub fn usdt_for(lvlx: Units, price: Units) -> Option<Units> {
    if price == 0 {
        return None;
    }
    Some(lvlx.checked_mul(price)?.div_ceil(LVLX_ONE))
}
