//! What the contracts' owners have announced and when it takes effect, for members and admins:
//! the claim distributor's changes waiting for their delay (a new signer, which also waits for
//! a whole delay of open claims; higher caps; an unpause) and when each lapses, its current
//! limits and their floors, and every contract's owner with any two-step transfer pending.
//! Read from the chain at the head, once per block whoever asks.

pub mod proposals;

use lvlx_core::amount::Units;
use lvlx_core::chain::{decode_address, decode_uint, Contract};
use lvlx_core::claims::{self, Announced};

use crate::chain::reads::{calls_at, head, Call};
use crate::chain::rpc::Rpc;
use crate::config;
use crate::error::Error;
use crate::{ChainReads, Config};

const ZERO: &str = "0x0000000000000000000000000000000000000000";

/// The distributor's fields, in the order [`read`] asks for them.
const FIELDS: [&str; 18] = [
    "delay",
    "paused",
    "signer",
    "maxPerClaim",
    "maxPerDay",
    "pendingSigner",
    "signerAt",
    "pendingMaxPerClaim",
    "pendingMaxPerDay",
    "capsAt",
    "unpauseAt",
    "maxPerAccountDay",
    "pendingMaxPerAccountDay",
    "openSince",
    "GRACE_PERIOD",
    "minPerClaim",
    "minPerDay",
    "minPerAccountDay",
];

/// What the contracts' owners have announced, at a block.
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Owners {
    /// The block's time, seconds.
    block_time: u64,
    /// How long the distributor's owner waits between announcing a change and making it (and
    /// how long claims must have been open before a new signer applies).
    delay_seconds: u64,
    /// How long an announced change stays applicable after its time; then it lapses.
    grace_seconds: u64,
    claims: ClaimTerms,
    /// Changes waiting for their time, soonest first.
    pending: Vec<lvlx_core::claims::Pending>,
    owners: Vec<Owner>,
}

/// The claim distributor's terms now (LVLX).
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimTerms {
    paused: bool,
    /// The key whose vouchers the distributor pays.
    signer: String,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    max_per_claim: Units,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    max_per_day: Units,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    max_per_account_day: Units,
    /// The caps' floors (fixed at deployment): claims count as open for a signer change only
    /// while every cap is at least its floor.
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    min_per_claim: Units,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    min_per_day: Units,
    #[serde(with = "lvlx_core::amount::text")]
    #[schema(schema_with = lvlx_core::amount::text::schema)]
    min_per_account_day: Units,
    /// Since when claims have been open (unpaused, caps at their floors or above, none
    /// lowered since), seconds; null while they are closed.
    open_since: Option<u64>,
}

/// A contract's owner, and the one it was handed to that has not accepted yet.
#[derive(Clone, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Owner {
    contract: &'static str,
    address: String,
    owner: String,
    pending_owner: Option<String>,
}

/// The owners' terms and announced changes at the chain's head (shared by every call at that
/// block).
pub async fn read(config: &Config, reads: &ChainReads) -> Result<Owners, Error> {
    let chain = crate::chain::network(config)?;
    let rpc = Rpc::new(chain.rpc_url.expose());
    let (block, time) = head(&rpc).await?;
    reads
        .owners
        .get("owners", block, move || read_at(&rpc, &chain, block, time))
        .await
}

fn read_at(rpc: &Rpc, chain: &config::Chain, block: u64, time: u64) -> Result<Owners, Error> {
    let distributor = chain.claim_distributor.as_str();
    let contracts = chain.owned();
    let mut calls: Vec<Call> = FIELDS
        .iter()
        .map(|f| (distributor, Contract::ClaimDistributor, *f, vec![]))
        .collect();
    for (address, contract) in &contracts {
        calls.push((address, *contract, "owner", vec![]));
        calls.push((address, *contract, "pendingOwner", vec![]));
    }
    let answers = calls_at(rpc, block, &calls)?;
    let bad = |e: lvlx_core::chain::ChainError| Error::Internal(format!("owner reads: {e}"));
    let uint = |i: usize| decode_uint(&answers[i]).map_err(bad);
    let address = |i: usize| decode_address(&answers[i]).map_err(bad);
    let seconds = |i: usize| uint(i).map(|v| u64::try_from(v).unwrap_or(u64::MAX));
    let announced = Announced {
        signer: address(2)?,
        max_per_claim: uint(3)?,
        max_per_day: uint(4)?,
        max_per_account_day: uint(11)?,
        pending_signer: address(5)?,
        signer_at: seconds(6)?,
        pending_max_per_claim: uint(7)?,
        pending_max_per_day: uint(8)?,
        pending_max_per_account_day: uint(12)?,
        caps_at: seconds(9)?,
        unpause_at: seconds(10)?,
        open_since: seconds(13)?,
        delay: seconds(0)?,
        grace: seconds(14)?,
    };
    let owners = contracts
        .iter()
        .enumerate()
        .map(|(i, (at, contract))| {
            let owner = address(FIELDS.len() + 2 * i)?;
            let pending = address(FIELDS.len() + 2 * i + 1)?;
            Ok(Owner {
                contract: contract.name(),
                address: at.to_string(),
                owner,
                pending_owner: (!pending.eq_ignore_ascii_case(ZERO)).then_some(pending),
            })
        })
        .collect::<Result<Vec<Owner>, Error>>()?;
    Ok(Owners {
        block_time: time,
        delay_seconds: seconds(0)?,
        grace_seconds: seconds(14)?,
        claims: ClaimTerms {
            paused: uint(1)? == 1,
            signer: announced.signer.clone(),
            max_per_claim: announced.max_per_claim,
            max_per_day: announced.max_per_day,
            max_per_account_day: announced.max_per_account_day,
            min_per_claim: uint(15)?,
            min_per_day: uint(16)?,
            min_per_account_day: uint(17)?,
            open_since: (announced.open_since != 0).then_some(announced.open_since),
        },
        pending: claims::pending(&announced, time),
        owners,
    })
}
