//! A purchase on the ICO sale as the token page plans it: what was typed (in USDT or in the
//! token) becomes both amounts at the sale's on-chain price, with what the wallet must do first.
//! The contract's own arithmetic ([`crate::chain::quote`], [`crate::chain::usdt_for`]).

use serde::{Deserialize, Serialize};

use crate::amount::{self, Units};
use crate::chain::{quote, usdt_for};
use crate::validation::{validate_amount, Invalid};
use crate::{LVLX_DECIMALS, USDT_DECIMALS};

/// The field a person typed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Usdt,
    Lvlx,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// USDT base units paid.
    #[serde(with = "as_text")]
    pub usdt: Units,
    /// LVLX base units received (at least what was typed in LVLX).
    #[serde(with = "as_text")]
    pub lvlx: Units,
    /// The sale may not yet spend that much of the wallet's USDT: approve first.
    pub needs_approval: bool,
    /// The wallet holds less USDT than the purchase costs.
    pub short_of_balance: bool,
}

mod as_text {
    pub fn serialize<S: serde::Serializer>(units: &u128, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&units.to_string())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("invalid amount")]
    Invalid(Invalid),
    #[error("more than any sale could fill")]
    TooLarge,
    #[error("the sale has no price")]
    NoPrice,
    #[error("too small to buy any base unit")]
    TooSmall,
}

impl PlanError {
    /// Translation key.
    pub fn key(self) -> &'static str {
        match self {
            PlanError::Invalid(invalid) => invalid.key(),
            PlanError::TooLarge => "buy-amount-too-large",
            PlanError::NoPrice => "chain-no-price",
            PlanError::TooSmall => "chain-amount-too-small",
        }
    }

    pub const KEYS: [&'static str; 3] = [
        "buy-amount-too-large",
        "chain-no-price",
        "chain-amount-too-small",
    ];
}

/// Both amounts from `text` typed on `side`, at `price` (USDT base units per whole LVLX), for a
/// wallet holding `balance` USDT of which the sale may spend `allowance`. `text` is read as
/// `language` writes numbers (`amount::parse_typed`).
pub fn plan(
    side: Side,
    text: &str,
    language: &str,
    price: Units,
    balance: Units,
    allowance: Units,
) -> Result<Plan, PlanError> {
    let decimals = match side {
        Side::Usdt => USDT_DECIMALS,
        Side::Lvlx => LVLX_DECIMALS,
    };
    validate_amount(text, decimals, None, None, language).map_err(PlanError::Invalid)?;
    if price == 0 {
        return Err(PlanError::NoPrice);
    }
    // Beyond what 128-bit base units hold: no sale could ever fill it.
    let typed = amount::parse_typed(text, decimals, language).map_err(|_| PlanError::TooLarge)?;
    let usdt = match side {
        Side::Usdt => typed,
        Side::Lvlx => usdt_for(typed, price).ok_or(PlanError::TooLarge)?,
    };
    let lvlx = quote(usdt, price).ok_or(PlanError::TooLarge)?;
    if lvlx == 0 {
        return Err(PlanError::TooSmall);
    }
    Ok(Plan {
        usdt,
        lvlx,
        needs_approval: allowance < usdt,
        short_of_balance: balance < usdt,
    })
}

/// The explorer's page of a transaction (`{explorer}/tx/{hash}`), or `None` without an explorer.
pub fn explorer_tx(explorer: &str, hash: &str) -> Option<String> {
    explorer_link(explorer, "tx", hash)
}

/// A token contract's page on the configured explorer (`{explorer}/token/{address}`).
pub fn explorer_token(explorer: &str, address: &str) -> Option<String> {
    explorer_link(explorer, "token", address)
}

fn explorer_link(explorer: &str, kind: &str, id: &str) -> Option<String> {
    let base = explorer.trim().trim_end_matches('/');
    (!base.is_empty() && !id.is_empty()).then(|| format!("{base}/{kind}/{id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRICE: Units = 100_000; // 0.1 USDT
    const LVLX: Units = 1_000_000_000_000_000_000;

    #[test]
    fn typed_usdt_or_lvlx_gives_both_amounts_and_what_to_do_first() {
        let p = plan(Side::Usdt, "1", "en", PRICE, 5_000_000, 0).unwrap();
        assert_eq!(
            (p.usdt, p.lvlx, p.needs_approval, p.short_of_balance),
            (1_000_000, 10 * LVLX, true, false)
        );
        let p = plan(Side::Lvlx, "10", "en", PRICE, 999_999, 1_000_000).unwrap();
        assert_eq!(
            (p.usdt, p.lvlx, p.needs_approval, p.short_of_balance),
            (1_000_000, 10 * LVLX, false, true)
        );
        // Rounded up: the buyer never gets less than typed.
        let p = plan(Side::Lvlx, "0.000000000000000001", "en", PRICE, 0, 0).unwrap();
        assert_eq!((p.usdt, p.lvlx), (1, 10_000_000_000_000));
    }

    #[test]
    fn every_failure_is_a_translation_key() {
        let key = |side, text: &str, price| plan(side, text, "en", price, 0, 0).unwrap_err().key();
        assert_eq!(key(Side::Usdt, "", PRICE), "validations-req");
        assert_eq!(key(Side::Usdt, "abc", PRICE), "validations-amount-msg");
        assert_eq!(key(Side::Usdt, "1", 0), "chain-no-price");
        assert_eq!(
            key(Side::Usdt, &"9".repeat(40), PRICE),
            "validations-amount-msg"
        );
        assert_eq!(
            key(Side::Usdt, "1000000000000000", PRICE),
            "buy-amount-too-large"
        );
        assert_eq!(key(Side::Usdt, "0", PRICE), "chain-amount-too-small");
    }

    #[test]
    fn explorer_links() {
        assert_eq!(
            explorer_tx("https://polygonscan.com/", "0xab").as_deref(),
            Some("https://polygonscan.com/tx/0xab")
        );
        assert_eq!(explorer_tx("", "0xab"), None);
        assert_eq!(
            explorer_token("https://polygonscan.com", "0xc2").as_deref(),
            Some("https://polygonscan.com/token/0xc2")
        );
    }
}
