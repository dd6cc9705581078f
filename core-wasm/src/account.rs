//! One account of a member's money, the same on every page: what the wallet holds (read from
//! the chain), what is staked and until when, staking rewards accrued, commissions and bonuses
//! claimable, what was paid out, and what was bought on the platform — each figure what it says,
//! none counted twice.
//!
//! "Bought" is the ledger's record of purchases (the server's), not a holding: LVLX bought and
//! then staked sits in "staked", not in the wallet, so the two never count the same LVLX.

use serde::{Deserialize, Serialize};

use crate::amount::{self, Units};
use crate::kyc::ClaimSplit;

/// What the server knows (`GET /api/v1/dashboard` → `account`), base units as decimal text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = AccountPart))]
#[serde(rename_all = "camelCase")]
pub struct Server {
    /// LVLX bought through the sale, as the ledger records it.
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub bought: Units,
    /// LVLX in open staking positions.
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub staked: Units,
    /// NFTs in open staking positions.
    pub nfts: u64,
    /// The next release (seconds) still ahead among open positions, LVLX or NFT, if any.
    pub next_release: Option<u64>,
    /// Staking rewards accrued and not yet withdrawn, at the server's second.
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub accrued: Units,
    /// Staking interest already paid out (the withdrawNFTs + withdrawLVLXs totals,
    /// docs/product/api.md#user).
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub interest_paid: Units,
    /// Commissions and rank bonuses credited and not yet paid by the distributor.
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub claimable: Units,
    /// `claimable` split by the identity rule (`kyc::claim_split`): what a claim may pay now,
    /// what waits for a verified identity.
    pub claim_split: ClaimSplit,
    /// What the distributor has paid the member.
    #[serde(with = "amount::text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::text::schema))]
    pub claims_paid: Units,
    /// USDT base units: the value of the NFTs in open positions at their terms on chain
    /// (`staking::nft_value`); null when the chain could not be read.
    #[serde(default, with = "amount::opt_text")]
    #[cfg_attr(feature = "openapi", schema(schema_with = amount::opt_text::schema))]
    pub nft_value: Option<Units>,
}

/// The account as pages show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    /// LVLX in the linked wallet now; `None` when the chain could not be read.
    #[serde(serialize_with = "amount::opt_text::serialize")]
    pub wallet: Option<Units>,
    #[serde(with = "amount::text")]
    pub staked: Units,
    pub nfts: u64,
    pub locked_until: Option<u64>,
    #[serde(with = "amount::text")]
    pub accrued: Units,
    #[serde(with = "amount::text")]
    pub claimable: Units,
    /// `claimable` as what a claim may pay now and what waits for a verified identity.
    pub claim_split: ClaimSplit,
    /// Paid out to the wallet: staking interest and claims.
    #[serde(with = "amount::text")]
    pub paid: Units,
    #[serde(with = "amount::text")]
    pub bought: Units,
    /// Yours now or later: wallet + staked + accrued + claimable (without the wallet when it
    /// could not be read; `wallet_counted` says which).
    #[serde(with = "amount::text")]
    pub total: Units,
    pub wallet_counted: bool,
    /// The total's USDT value at the price of docs/product/money.md#price (2 decimals).
    pub total_usdt: String,
    /// The staked NFTs' value in USDT (2 decimals), when they are staked and their value was read.
    pub nft_usdt: Option<String>,
    /// The total's USDT value with the staked NFTs' value (2 decimals), when `nft_usdt` is.
    pub with_nfts_usdt: Option<String>,
}

/// The account from the server's figures and the wallet's balance on chain (if read).
pub fn account(server: &Server, wallet: Option<Units>) -> Result<Account, amount::AmountError> {
    let overflow = amount::AmountError::Overflow;
    let held =
        amount::sum([server.staked, server.accrued, server.claimable]).ok_or(overflow.clone())?;
    let total = match wallet {
        Some(w) => held.checked_add(w).ok_or(overflow.clone())?,
        None => held,
    };
    // Staked NFTs count when there are some and their value was read.
    let nfts = server
        .nft_value
        .filter(|_| server.nfts > 0)
        .map(amount::usdt_to_cents);
    Ok(Account {
        wallet,
        staked: server.staked,
        nfts: server.nfts,
        locked_until: server.next_release,
        accrued: server.accrued,
        claimable: server.claimable,
        claim_split: server.claim_split,
        paid: server
            .interest_paid
            .checked_add(server.claims_paid)
            .ok_or(overflow.clone())?,
        bought: server.bought,
        total,
        wallet_counted: wallet.is_some(),
        total_usdt: amount::lvlx_to_usdt(total),
        nft_usdt: nfts.map(amount::cents_text),
        with_nfts_usdt: nfts
            .map(|cents| {
                cents
                    .checked_add(amount::lvlx_to_cents(total))
                    .ok_or(overflow)
            })
            .transpose()?
            .map(amount::cents_text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LVLX: Units = 1_000_000_000_000_000_000;

    #[test]
    fn bought_then_staked_counts_once() {
        // The review's case: 25 bought, 10 of them staked, 15 left in the wallet.
        let server = Server {
            bought: 25 * LVLX,
            staked: 10 * LVLX,
            next_release: Some(1_800_000_000),
            accrued: LVLX / 10,
            claimable: 2 * LVLX,
            interest_paid: LVLX,
            claims_paid: 3 * LVLX,
            ..Server::default()
        };
        let a = account(&server, Some(15 * LVLX)).unwrap();
        assert_eq!(a.total, 15 * LVLX + 10 * LVLX + LVLX / 10 + 2 * LVLX);
        assert_eq!(a.paid, 4 * LVLX);
        assert_eq!(a.bought, 25 * LVLX, "bought is said, never added");
        assert_eq!(a.total_usdt, "2.71");
        let unread = account(&server, None).unwrap();
        assert_eq!(unread.total, a.total - 15 * LVLX);
        assert!(!unread.wallet_counted);
        let huge = Server {
            staked: Units::MAX,
            claimable: 1,
            ..Server::default()
        };
        assert_eq!(account(&huge, None), Err(amount::AmountError::Overflow));
        assert_eq!(a.nft_usdt, None, "no NFTs staked");
        assert_eq!(a.with_nfts_usdt, None);
    }

    #[test]
    fn staked_nfts_count_at_their_value_in_usdt() {
        // The walk's case: 100 USDT of LVLX (1,000 LVLX) in the wallet and a 50-USDT NFT staked.
        let server = Server {
            bought: 1_000 * LVLX,
            nfts: 1,
            nft_value: Some(50_000_000),
            ..Server::default()
        };
        let a = account(&server, Some(1_000 * LVLX)).unwrap();
        assert_eq!(a.total_usdt, "100.00");
        assert_eq!(a.nft_usdt.as_deref(), Some("50.00"));
        assert_eq!(a.with_nfts_usdt.as_deref(), Some("150.00"));
        // A value that was not read is not guessed; a value without NFTs is not shown.
        let unread = account(
            &Server {
                nft_value: None,
                ..server.clone()
            },
            None,
        )
        .unwrap();
        assert_eq!(unread.with_nfts_usdt, None);
        let none = account(&Server { nfts: 0, ..server }, None).unwrap();
        assert_eq!(none.nft_usdt, None);
        // Each part rounds once: 0.005 USDT of LVLX and 0.004999 USDT of NFT.
        let odd = Server {
            nfts: 1,
            nft_value: Some(4_999),
            staked: LVLX / 20,
            ..Server::default()
        };
        let a = account(&odd, None).unwrap();
        assert_eq!(
            (a.total_usdt.as_str(), a.nft_usdt.as_deref()),
            ("0.01", Some("0.00"))
        );
        assert_eq!(a.with_nfts_usdt.as_deref(), Some("0.01"));
    }
}
