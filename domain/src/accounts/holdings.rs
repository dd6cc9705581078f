//! What a member holds as indexed: the LVLX balance with the newest ledger entries (myActives)
//! and the dashboard's figures.

use lvlx_core::amount::Units;

use crate::error::Error;
use crate::store::{history, ledger, referrals, reversals, stakes, users};
use crate::user::User;
use crate::{ChainReads, Config, Store};

/// Entries myActives lists (the newest).
const ACTIVES_LIMIT: i64 = 500;

/// The longest the dashboard waits for the wallet's balance on chain.
const WALLET_READ: std::time::Duration = std::time::Duration::from_secs(2);

/// Reversals myActives lists (the newest).
const REVERSALS_LIMIT: i64 = 50;

/// The most entries of each kind the money history reads (a member has far fewer).
const HISTORY_LIMIT: i64 = 5_000;

/// `{entries, prices, wholeFrom}`: every credit and payment of the member, newest first, each
/// valued in USDT on its day (`lvlx_core::history`), and the sale's prices it used. A member
/// with more than 5,000 entries of one kind gets the history from where it is whole
/// (`wholeFrom`, milliseconds; null when it is whole from the start).
pub async fn history(store: &Store, config: &Config, member: &User) -> Result<History, Error> {
    let user = member.id;
    let product = config.product.clone();
    // Without a chain configured, only what the server credited itself (and seeded history).
    let (nft, lvlx, ico_sale) = config.chain.as_ref().map_or_else(Default::default, |c| {
        (
            c.nft_staking.to_lowercase(),
            c.lvlx_staking.to_lowercase(),
            c.ico_sale.to_lowercase(),
        )
    });
    let (entries, prices) = store
        .read(move |c| {
            let pools = history::Pools {
                nft: &nft,
                lvlx: &lvlx,
            };
            Ok::<_, Error>((
                history::of_member(c, user, &product, &pools, HISTORY_LIMIT)?,
                history::prices(c, &ico_sale)?,
            ))
        })
        .await?;
    let (entries, whole_from) = lvlx_core::history::whole(entries, HISTORY_LIMIT as usize);
    let valued = lvlx_core::history::value(entries, &config.product, &prices);
    Ok(History {
        entries: valued,
        prices,
        whole_from,
    })
}

/// The member's money history.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct History {
    /// Newest first.
    entries: Vec<lvlx_core::history::Valued>,
    /// The sale's prices, oldest first.
    prices: Vec<lvlx_core::history::Price>,
    /// Where the history is whole from (ms); null when it is whole from the start.
    whole_from: Option<i64>,
}

/// The member's LVLX bought, their ledger entries and what was taken back.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Actives {
    /// The linked wallet.
    wallet: Option<String>,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    balance: Units,
    /// Newest first; each pending until the chain's final block passes it.
    entries: Vec<ledger::Held>,
    /// Events that left the chain in a reorganisation, newest first.
    reversals: Vec<reversals::Reversal>,
}

/// The dashboard's figures.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    /// LVLX bought through the sale.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    balance: Units,
    balance_usdt: String,
    staking: crate::staking::Glance,
    /// The server's part of the member's money account (the page adds the wallet's balance).
    account: lvlx_core::account::Server,
    /// The linked wallet's LVLX on chain; null without a wallet or when the chain cannot be read.
    #[serde(with = "lvlx_core::amount::opt_text")]
    #[schema(schema_with = lvlx_core::amount::opt_text::schema)]
    wallet_lvlx: Option<Units>,
}

/// `{wallet, balance, entries, reversals}`: the LVLX balance, the newest ledger entries (at
/// most 500, each pending or final) and what left the chain and was taken back.
pub async fn actives(store: &Store, member: &User) -> Result<Actives, Error> {
    let user = member.id;
    let (balance, entries, reversals) = store
        .read(move |c| {
            Ok::<_, Error>((
                users::balance(c, user)?,
                ledger::held_by(c, user, ACTIVES_LIMIT)?,
                reversals::of_member(c, user, REVERSALS_LIMIT)?,
            ))
        })
        .await?;
    Ok(Actives {
        wallet: member.wallet.clone(),
        balance,
        entries,
        reversals,
    })
}

/// The dashboard's figures: `{balance, balanceUsdt, staking: {positions, nfts, lvlx, accrued,
/// accruedUsdt}, account, walletLvlx}`. `account` is the server's part of the member's money
/// account (`lvlx_core::account::Server`); `walletLvlx` the linked wallet's LVLX on chain (the
/// staking pages' per-block read, shared; null without a wallet or when the chain cannot be
/// read), which the page adds to it through the core. `kyc_threshold`: claims above it need an
/// approved identity.
pub async fn dashboard(
    store: &Store,
    config: &Config,
    reads: &ChainReads,
    kyc_threshold: Option<Units>,
    member: &User,
) -> Result<Dashboard, Error> {
    let user = member.id;
    let now = (crate::now_ms() / 1000) as u64;
    let threshold = kyc_threshold;
    let (mut dashboard, staked_nfts) = store
        .read(move |c| {
            let balance = users::balance(c, user)?;
            let (nft, lvlx) = stakes::of_member(c, user)?;
            let staking = crate::staking::glance(&nft, &lvlx, now)?;
            let staked_nfts = crate::staking::open_nfts(&nft);
            let network = referrals::figures(c, user)?;
            let account = lvlx_core::account::Server {
                bought: balance,
                claimable: network.claimable(),
                claim_split: crate::kyc::claim_split(
                    c,
                    threshold,
                    user,
                    network.claimable(),
                    network.paid_out,
                )?,
                claims_paid: network.paid_out,
                ..crate::staking::account_part(&nft, &lvlx, now)?
            };
            let dashboard = Dashboard {
                balance,
                balance_usdt: lvlx_core::amount::lvlx_to_usdt(balance),
                staking,
                account,
                wallet_lvlx: None,
            };
            Ok::<_, Error>((dashboard, staked_nfts))
        })
        .await?;
    let on_chain = match (config.staking_chain(), member.wallet.as_deref()) {
        // The dashboard never waits long on the node: past WALLET_READ the wallet line and the
        // NFTs' value say they could not be read, and the rest of the page is the store's.
        (Some(chain), Some(wallet)) => tokio::time::timeout(
            WALLET_READ,
            crate::staking::on_chain(reads, chain, Some(wallet)),
        )
        .await
        .ok()
        .and_then(Result::ok),
        _ => None,
    };
    if let Some(o) = on_chain {
        dashboard.wallet_lvlx = o.lvlx_balance;
        let terms: Vec<_> = o.nfts.iter().map(|(terms, _)| *terms).collect();
        dashboard.account.nft_value = lvlx_core::staking::nft_value(&staked_nfts, &terms);
    }
    Ok(dashboard)
}
