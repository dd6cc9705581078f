//! The ICO ledger's rules (docs/product/money.md#ledger): an entry in the product is a purchase,
//! any other token a retirement; a retirement takes the LVLX value of its amount at the sale's
//! price (1 LVLX = 0.1 USDT, docs/product/money.md#price), never below zero.

use serde::Serialize;

use crate::admin::ico::token_decimals;
use crate::amount::Units;
use crate::chain::DEFAULT_PRICE;
use crate::USDT_DECIMALS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    #[error("the LVLX balance would leave the 128-bit range")]
    Overflow,
}

/// What a ledger entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    Purchase,
    Retirement,
}

pub fn operation(product: &str, token: &str) -> Operation {
    if token == product {
        Operation::Purchase
    } else {
        Operation::Retirement
    }
}

/// LVLX base units worth `usdt` USDT base units at the sale's default price.
pub fn usdt_in_lvlx(usdt: Units) -> Option<Units> {
    crate::chain::quote(usdt, DEFAULT_PRICE)
}

/// A member's LVLX after an entry: purchases add, retirements take their LVLX value.
pub fn balance_after(
    balance: Units,
    product: &str,
    token: &str,
    amount: Units,
) -> Result<Units, LedgerError> {
    if operation(product, token) == Operation::Purchase {
        return balance.checked_add(amount).ok_or(LedgerError::Overflow);
    }
    // USDT at the sale's price; MATIC (18 decimals) one for one, as the ledger always counted it.
    let lvlx = if token_decimals(token) == USDT_DECIMALS {
        usdt_in_lvlx(amount).ok_or(LedgerError::Overflow)?
    } else {
        amount
    };
    Ok(balance.saturating_sub(lvlx))
}

/// A member's LVLX with a purchase taken back (its block left the chain): the purchase's
/// amount comes off, never below zero. Only purchases come from the chain; a retirement is never
/// taken back.
pub fn balance_without(balance: Units, product: &str, token: &str, amount: Units) -> Units {
    match operation(product, token) {
        Operation::Purchase => balance.saturating_sub(amount),
        Operation::Retirement => balance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LVLX: Units = 1_000_000_000_000_000_000;

    #[test]
    fn purchases_add_and_retirements_take_their_value() {
        assert_eq!(balance_after(0, "LVLX", "LVLX", 5 * LVLX), Ok(5 * LVLX));
        // 0.1 USDT is 1 LVLX.
        assert_eq!(
            balance_after(5 * LVLX, "LVLX", "USDT", 100_000),
            Ok(4 * LVLX)
        );
        assert_eq!(balance_after(LVLX, "LVLX", "USDT", 1_000_000), Ok(0));
        assert_eq!(balance_after(5 * LVLX, "LVLX", "MATIC", LVLX), Ok(4 * LVLX));
        assert_eq!(
            balance_after(u128::MAX, "LVLX", "LVLX", 1),
            Err(LedgerError::Overflow)
        );
        // A purchase taken back by a rollback comes off again; retirements never come back.
        assert_eq!(
            balance_without(5 * LVLX, "LVLX", "LVLX", 2 * LVLX),
            3 * LVLX
        );
        assert_eq!(balance_without(LVLX, "LVLX", "LVLX", 2 * LVLX), 0);
        assert_eq!(balance_without(LVLX, "LVLX", "USDT", 100_000), LVLX);
        assert_eq!(operation("LVLX", "USDT"), Operation::Retirement);
    }
}
