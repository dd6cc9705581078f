//! The NFT sale and both staking contracts on a real anvil chain: every staking rule of
//! docs/product/staking.md, the core's reward and accrual figures checked against the contracts
//! with the same vectors, and the gas each member action costs.

use crate::common;

use common::anvil::Anvil;
use ethers_core::abi::Token;
use lvlx_backend::chain::deploy::{self, Deployment, DEV_RESERVE};
use lvlx_backend::chain::owner;
use lvlx_core::chain::{self, Contract, Event, StakingEvent};
use lvlx_core::staking::{self, Pool, DEFAULT_NFT_TERMS, DEFAULT_TIERS};
use serde_json::{json, Value};

const LVLX: u128 = 1_000_000_000_000_000_000;
/// Tests stake without a quote: any reward above zero, any release.
const ANY_RELEASE: &str = "18446744073709551615";

struct Chain {
    anvil: Anvil,
    d: Deployment,
    accounts: Vec<String>,
}

impl Chain {
    fn start() -> Chain {
        let anvil = Anvil::start();
        let d = deploy::deploy_dev(&anvil.rpc).unwrap();
        let accounts = anvil.accounts();
        Chain { anvil, d, accounts }
    }

    fn owner(&self) -> &str {
        &self.accounts[0]
    }

    fn send(
        &self,
        from: &str,
        to: &str,
        contract: Contract,
        function: &str,
        args: &[&str],
    ) -> Value {
        owner::transact(&self.anvil.rpc, from, to, contract, function, args)
            .unwrap_or_else(|e| panic!("{function}: {e}"))
    }

    fn uint(&self, to: &str, contract: Contract, function: &str, args: &[&str]) -> u128 {
        self.anvil.read_uint(to, contract, function, args)
    }

    fn lvlx_of(&self, who: &str) -> u128 {
        self.uint(&self.d.lvlx, Contract::Lvlx, "balanceOf", &[who])
    }

    fn nfts_of(&self, who: &str, id: u32) -> u128 {
        self.uint(
            &self.d.level_nft,
            Contract::LevelNft,
            "balanceOf",
            &[who, &id.to_string()],
        )
    }

    fn free(&self, pool: &str) -> u128 {
        self.uint(pool, Contract::NftStaking, "freeReserve", &[])
    }

    fn reserved(&self, pool: &str) -> u128 {
        self.uint(pool, Contract::NftStaking, "reserved", &[])
    }

    /// The revert's translation key.
    fn refused(
        &self,
        from: &str,
        to: &str,
        contract: Contract,
        function: &str,
        args: &[&str],
    ) -> &'static str {
        chain::revert_key(&self.anvil.revert(from, to, contract, function, args))
    }

    /// `buyer` buys `quantity` NFTs of `id` at the sale's price.
    fn buy_nft(&self, buyer: &str, id: u32, quantity: u128) -> Value {
        let cost = (DEFAULT_NFT_TERMS[id as usize - 1].usdt_value * quantity).to_string();
        self.send(
            buyer,
            &self.d.usdt,
            Contract::Lvlx,
            "approve",
            &[&self.d.nft_sale, &cost],
        );
        self.send(
            buyer,
            &self.d.nft_sale,
            Contract::NftSale,
            "buy",
            &[&id.to_string(), &quantity.to_string(), &cost],
        )
    }

    /// Gives `who` LVLX from the owner's stock.
    fn give_lvlx(&self, who: &str, amount: u128) {
        self.send(
            self.owner(),
            &self.d.lvlx,
            Contract::Lvlx,
            "transfer",
            &[who, &amount.to_string()],
        );
    }

    fn stake_lvlx(&self, who: &str, tier: u32, amount: u128) -> Value {
        let a = amount.to_string();
        self.send(
            who,
            &self.d.lvlx,
            Contract::Lvlx,
            "approve",
            &[&self.d.lvlx_staking, &a],
        );
        self.send(
            who,
            &self.d.lvlx_staking,
            Contract::LvlxStaking,
            "stake",
            &[&tier.to_string(), &a, "0", ANY_RELEASE],
        )
    }

    /// The NFT-sale and staking events of a receipt, decoded by the core.
    fn events(receipt: &Value) -> Vec<Event> {
        receipt["logs"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|log| {
                let topics: Vec<&str> = log["topics"]
                    .as_array()?
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                let data = log["data"].as_str()?;
                [Contract::NftSale, Contract::NftStaking]
                    .into_iter()
                    .find_map(|c| chain::decode(c, &topics, data).ok())
            })
            .collect()
    }
}

fn gas(receipt: &Value) -> u64 {
    lvlx_backend::chain::rpc::quantity(&receipt["gasUsed"]).unwrap()
}

#[test]
fn the_chain_holds_the_core_default_terms() {
    let c = Chain::start();
    let terms = |to: &str, contract: Contract, kind: u32| {
        let data = chain::calldata(contract, "terms", &[&kind.to_string()]).unwrap();
        let answer = c
            .anvil
            .rpc
            .call("eth_call", json!([{"to": to, "data": data}, "latest"]))
            .unwrap();
        chain::decode_terms(kind, answer.as_str().unwrap()).unwrap()
    };
    for t in DEFAULT_NFT_TERMS {
        let id = t.kind.to_string();
        assert_eq!(
            c.uint(&c.d.nft_sale, Contract::NftSale, "price", &[&id]),
            t.usdt_value
        );
        assert_eq!(terms(&c.d.nft_staking, Contract::NftStaking, t.kind), t);
    }
    for t in DEFAULT_TIERS {
        assert_eq!(terms(&c.d.lvlx_staking, Contract::LvlxStaking, t.kind), t);
    }
    assert_eq!(c.free(&c.d.nft_staking), DEV_RESERVE);
    assert_eq!(c.free(&c.d.lvlx_staking), DEV_RESERVE);
}

#[test]
fn nfts_are_bought_staked_paid_and_returned_exactly_as_the_core_says() {
    let c = Chain::start();
    let member = c.accounts[1].clone();
    let usdt_of = |who: &str| c.uint(&c.d.usdt, Contract::Lvlx, "balanceOf", &[who]);
    let treasury_before = usdt_of(&c.d.treasury);

    // Buying: USDT straight to the treasury, NFTs to the buyer, one event.
    let bought = c.buy_nft(&member, 3, 2);
    let terms = DEFAULT_NFT_TERMS[2];
    assert_eq!(
        usdt_of(&c.d.treasury) - treasury_before,
        2 * terms.usdt_value
    );
    assert_eq!(usdt_of(&c.d.nft_sale), 0);
    assert_eq!(c.nfts_of(&member, 3), 2);
    assert_eq!(
        Chain::events(&bought),
        vec![Event::NftPurchased(chain::NftPurchase {
            buyer: lvlx_core::siwe::checksummed(&member).unwrap(),
            id: 3,
            quantity: 2,
            usdt_paid: 2 * terms.usdt_value,
        })]
    );
    // Unknown ids, a price above the buyer's cap, and the owner's steering only.
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_sale,
            Contract::NftSale,
            "buy",
            &["12", "1", "1"]
        ),
        "chain-not-for-sale"
    );
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_sale,
            Contract::NftSale,
            "buy",
            &["1", "1", "1"]
        ),
        "chain-price-moved"
    );
    assert_eq!(
        c.refused(
            &member,
            &c.d.level_nft,
            Contract::LevelNft,
            "mint",
            &[&member, "1", "1"]
        ),
        "chain-reverted"
    );

    // Staking needs the approval, then reserves the whole reward.
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "stake",
            &["3", "2", "0", ANY_RELEASE]
        ),
        "chain-nft-approval"
    );
    c.send(
        &member,
        &c.d.level_nft,
        Contract::LevelNft,
        "setApprovalForAll",
        &[&c.d.nft_staking, "true"],
    );
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "stake",
            &["3", "3", "0", ANY_RELEASE]
        ),
        "chain-insufficient-nfts"
    );
    let reward = staking::reward(Pool::Nft, &terms, 2).unwrap();
    assert_eq!(reward, 2 * 250 * 10 * LVLX * 1_100 / 10_000);
    assert_eq!(
        c.uint(
            &c.d.nft_staking,
            Contract::NftStaking,
            "rewardFor",
            &["3", "2"]
        ),
        reward
    );
    let staked = c.send(
        &member,
        &c.d.nft_staking,
        Contract::NftStaking,
        "stake",
        &["3", "2", "0", ANY_RELEASE],
    );
    let start = c.anvil.time_of(&staked);
    let release = start + terms.lock_seconds;
    assert_eq!(
        Chain::events(&staked),
        vec![Event::Staking(StakingEvent::Staked {
            position: 1,
            owner: lvlx_core::siwe::checksummed(&member).unwrap(),
            kind: 3,
            amount: 2,
            reward,
            start,
            release,
        })]
    );
    assert_eq!(c.nfts_of(&member, 3), 0);
    assert_eq!(c.nfts_of(&c.d.nft_staking, 3), 2);
    assert_eq!(c.free(&c.d.nft_staking), DEV_RESERVE - reward);
    assert_eq!(c.reserved(&c.d.nft_staking), reward);

    // The accrual at any second is the core's, to the base unit.
    let lock = terms.lock_seconds;
    for at in [
        start - 1,
        start,
        start + 1,
        start + 7,
        start + 12_345,
        start + lock / 3,
        release - 1,
        release,
        release + 99,
    ] {
        assert_eq!(
            c.uint(
                &c.d.nft_staking,
                Contract::NftStaking,
                "accrued",
                &["1", &at.to_string()]
            ),
            staking::accrued(reward, start, release, at),
            "at start + {}",
            at as i64 - start as i64
        );
    }
    // Interest withdrawals pay exactly what accrued since the last one.
    let mut withdrawn = 0;
    let before = c.lvlx_of(&member);
    for at in [start + 1, start + 1_000, start + lock / 2 + 17] {
        c.anvil.set_next_time(at);
        let r = c.send(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "withdrawInterest",
            &["1"],
        );
        let due = staking::accrued(reward, start, release, at) - withdrawn;
        assert_eq!(
            Chain::events(&r),
            vec![Event::Staking(StakingEvent::InterestWithdrawn {
                position: 1,
                owner: lvlx_core::siwe::checksummed(&member).unwrap(),
                amount: due
            })]
        );
        withdrawn += due;
    }
    assert_eq!(c.lvlx_of(&member) - before, withdrawn);
    assert_eq!(c.reserved(&c.d.nft_staking), reward - withdrawn);
    // Nobody else can touch the position; the principal waits for the release.
    let other = c.accounts[2].clone();
    assert_eq!(
        c.refused(
            &other,
            &c.d.nft_staking,
            Contract::NftStaking,
            "withdrawInterest",
            &["1"]
        ),
        "chain-not-yours"
    );
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "release",
            &["1"]
        ),
        "chain-not-released"
    );

    // After the release: the NFTs and the rest of the interest, and the position is closed.
    c.anvil.set_next_time(release + 5);
    let released = c.send(
        &member,
        &c.d.nft_staking,
        Contract::NftStaking,
        "release",
        &["1"],
    );
    assert_eq!(
        Chain::events(&released),
        vec![Event::Staking(StakingEvent::Released {
            position: 1,
            owner: lvlx_core::siwe::checksummed(&member).unwrap(),
            principal: 2,
            interest: reward - withdrawn,
        })]
    );
    assert_eq!(c.nfts_of(&member, 3), 2);
    assert_eq!(c.lvlx_of(&member) - before, reward);
    assert_eq!(c.reserved(&c.d.nft_staking), 0);
    assert_eq!(c.free(&c.d.nft_staking), DEV_RESERVE - reward);
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "release",
            &["1"]
        ),
        "chain-not-yours"
    );
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "withdrawInterest",
            &["1"]
        ),
        "chain-not-yours"
    );

    // A plain transfer to the staking contract is refused: NFTs arrive only through stake.
    let plain = c.anvil.revert(
        &member,
        &c.d.level_nft,
        Contract::LevelNft,
        "safeTransferFrom",
        &[&member, &c.d.nft_staking, "3", "1", "0x"],
    );
    let not_accepted = chain::hex0x(
        &Contract::NftStaking
            .abi()
            .error("NftStakingNotAccepted")
            .unwrap()
            .signature()
            .as_bytes()[..4],
    );
    assert!(plain.starts_with(&not_accepted), "{plain}");
}

#[test]
fn the_reserve_cannot_be_overcommitted_and_the_owner_cannot_reach_principal_or_promises() {
    let c = Chain::start();
    let (a, b) = (c.accounts[1].clone(), c.accounts[2].clone());
    let pool = c.d.lvlx_staking.clone();
    let tier = DEFAULT_TIERS[3]; // 24 %
    c.give_lvlx(&a, 10_000 * LVLX);
    c.give_lvlx(&b, 10_000 * LVLX);

    // The owner leaves 240 LVLX free: exactly the reward of 1000 LVLX in tier 4.
    let keep = 240 * LVLX;
    c.send(
        c.owner(),
        &pool,
        Contract::LvlxStaking,
        "withdrawFree",
        &[c.owner(), &(DEV_RESERVE - keep).to_string()],
    );
    assert_eq!(c.free(&pool), keep);
    c.stake_lvlx(&a, 4, 1000 * LVLX);
    assert_eq!((c.free(&pool), c.reserved(&pool)), (0, keep));
    assert_eq!(
        c.uint(&pool, Contract::LvlxStaking, "totalStaked", &[]),
        1000 * LVLX
    );

    // The contract now holds 1240 LVLX, yet staked principal is not reward budget: the next
    // stake is refused with the reserve's reason, as the core's quote refuses it.
    c.send(
        &b,
        &c.d.lvlx,
        Contract::Lvlx,
        "approve",
        &[&pool, &(1000 * LVLX).to_string()],
    );
    assert_eq!(
        c.refused(
            &b,
            &pool,
            Contract::LvlxStaking,
            "stake",
            &["4", &(1000 * LVLX).to_string(), "0", ANY_RELEASE]
        ),
        "chain-reserve-short"
    );
    assert_eq!(
        staking::quote(Pool::Lvlx, &tier, 1000 * LVLX, 0, 0)
            .unwrap_err()
            .key(),
        "chain-reserve-short"
    );
    // A stake whose reward rounds to nothing would lock its principal for nothing: refused.
    c.send(&b, &c.d.lvlx, Contract::Lvlx, "approve", &[&pool, "99"]);
    assert_eq!(
        c.refused(
            &b,
            &pool,
            Contract::LvlxStaking,
            "stake",
            &["1", "99", "0", ANY_RELEASE]
        ),
        "staking-reward-zero"
    );
    assert_eq!(
        staking::quote(Pool::Lvlx, &DEFAULT_TIERS[0], 99, LVLX, 0)
            .unwrap_err()
            .key(),
        "staking-reward-zero"
    );

    // The owner can take only the free part: not principal, not promised rewards.
    let owner = c.owner().to_string();
    let short = c.anvil.revert(
        &owner,
        &pool,
        Contract::LvlxStaking,
        "withdrawFree",
        &[&owner, "1"],
    );
    let sel = chain::hex0x(
        &Contract::LvlxStaking
            .abi()
            .error("RewardReserveFreeReserveShort")
            .unwrap()
            .signature()
            .as_bytes()[..4],
    );
    assert!(short.starts_with(&sel));
    // The owner's whole surface: nothing else moves tokens.
    let mut surface: Vec<&str> = Contract::LvlxStaking
        .abi()
        .functions()
        .filter(|f| {
            !matches!(
                f.state_mutability,
                ethers_core::abi::StateMutability::View | ethers_core::abi::StateMutability::Pure
            )
        })
        .map(|f| f.name.as_str())
        .collect();
    surface.sort_unstable();
    assert_eq!(
        surface,
        [
            "absorbStray",
            "acceptOwnership",
            "fund",
            "pause",
            "release",
            "setTerms",
            "stake",
            "transferOwnership",
            "unpause",
            "withdrawFree",
            "withdrawInterest"
        ]
    );
    // Changing terms never changes a promise; pausing stops new stakes, never withdrawals.
    c.send(
        &owner,
        &pool,
        Contract::LvlxStaking,
        "setTerms",
        &["4", "0", "1", "60"],
    );
    c.send(&owner, &pool, Contract::LvlxStaking, "pause", &[]);
    assert_eq!(
        c.refused(
            &a,
            &pool,
            Contract::LvlxStaking,
            "stake",
            &["4", "1", "0", ANY_RELEASE]
        ),
        "chain-sale-paused"
    );
    let position = c
        .anvil
        .read(&pool, Contract::LvlxStaking, "positions", &["1"]);
    let (start, release) = match (&position[1], &position[2]) {
        (Token::Uint(s), Token::Uint(r)) => (s.as_u64(), r.as_u64()),
        other => panic!("{other:?}"),
    };
    assert_eq!(release - start, tier.lock_seconds);
    c.anvil.set_next_time(release);
    let before = c.lvlx_of(&a);
    c.send(&a, &pool, Contract::LvlxStaking, "release", &["1"]);
    assert_eq!(c.lvlx_of(&a) - before, 1000 * LVLX + keep);
    assert_eq!((c.free(&pool), c.reserved(&pool)), (0, 0));
    assert_eq!(c.uint(&pool, Contract::LvlxStaking, "totalStaked", &[]), 0);
    // Anyone may fund; funding frees room for the next stake.
    c.send(
        &b,
        &c.d.lvlx,
        Contract::Lvlx,
        "approve",
        &[&pool, &LVLX.to_string()],
    );
    c.send(
        &b,
        &pool,
        Contract::LvlxStaking,
        "fund",
        &[&LVLX.to_string()],
    );
    assert_eq!(c.free(&pool), LVLX);
}

/// The audit's Low: the owner names itself a LevelNFT minter and mints NFTs for free, then stakes
/// them. That takes rewards out of the NFT pool's free reserve only — what `withdrawFree` reaches
/// anyway (the README's owner table lists it) — never a member's promised reward, principal or
/// NFT: a stake beyond the free reserve is refused, and a member's position opened before
/// releases in full.
#[test]
fn nfts_the_owner_mints_for_itself_reach_the_free_reserve_only() {
    let c = Chain::start();
    let (owner, member) = (c.owner().to_string(), c.accounts[1].clone());
    let pool = c.d.nft_staking.clone();
    c.buy_nft(&member, 11, 1);
    c.send(
        &member,
        &c.d.level_nft,
        Contract::LevelNft,
        "setApprovalForAll",
        &[&pool, "true"],
    );
    c.send(
        &member,
        &pool,
        Contract::NftStaking,
        "stake",
        &["11", "1", "0", ANY_RELEASE],
    );
    let promised = c.reserved(&pool);
    let members_reward = c.uint(&pool, Contract::NftStaking, "rewardFor", &["11", "1"]);
    assert_eq!(promised, members_reward);
    // Free NFTs, as many as the free reserve can reward, and one more.
    c.send(
        &owner,
        &c.d.level_nft,
        Contract::LevelNft,
        "setMinter",
        &[&owner, "true"],
    );
    let fit = (c.free(&pool) / members_reward).to_string();
    c.send(
        &owner,
        &c.d.level_nft,
        Contract::LevelNft,
        "mint",
        &[&owner, "11", &fit],
    );
    c.send(
        &owner,
        &c.d.level_nft,
        Contract::LevelNft,
        "mint",
        &[&owner, "11", "1"],
    );
    c.send(
        &owner,
        &c.d.level_nft,
        Contract::LevelNft,
        "setApprovalForAll",
        &[&pool, "true"],
    );
    c.send(
        &owner,
        &pool,
        Contract::NftStaking,
        "stake",
        &["11", &fit, "0", ANY_RELEASE],
    );
    assert!(c.free(&pool) < members_reward);
    assert_eq!(
        c.refused(
            &owner,
            &pool,
            Contract::NftStaking,
            "stake",
            &["11", "1", "0", ANY_RELEASE]
        ),
        "chain-reserve-short"
    );
    // The member's promise is untouched: at its release, the NFT and the whole reward.
    let position = c
        .anvil
        .read(&pool, Contract::NftStaking, "positions", &["1"]);
    let release = match &position[2] {
        Token::Uint(r) => r.as_u64(),
        other => panic!("{other:?}"),
    };
    c.anvil.set_next_time(release);
    let before = c.lvlx_of(&member);
    c.send(&member, &pool, Contract::NftStaking, "release", &["1"]);
    assert_eq!(c.lvlx_of(&member) - before, members_reward);
    assert_eq!(c.nfts_of(&member, 11), 1);
}

/// The review's attack: terms changed ahead of a member's stake (maliciously, or an admin's
/// routine edit) gave her a fraction of the quoted reward and a 136-year lock. The stake names
/// its quote's bounds, so it is refused instead; and no terms past the limits can be set.
#[test]
fn terms_moved_under_a_stake_refuse_it_and_terms_stay_within_limits() {
    let c = Chain::start();
    let owner = c.owner().to_string();
    let member = c.accounts[1].clone();
    let pool = c.d.lvlx_staking.clone();
    let amount = 10_000 * LVLX;
    c.give_lvlx(&member, amount);
    c.send(
        &member,
        &c.d.lvlx,
        Contract::Lvlx,
        "approve",
        &[&pool, &amount.to_string()],
    );
    // The page's quote, at the chain's time.
    let now = c.anvil.now();
    let tier = DEFAULT_TIERS[0];
    let quote = staking::quote(Pool::Lvlx, &tier, amount, c.free(&pool), now).unwrap();
    let bounds = [
        "1".to_string(),
        amount.to_string(),
        quote.reward.to_string(),
        quote.max_release.to_string(),
    ];
    let bounds: Vec<&str> = bounds.iter().map(String::as_str).collect();

    // Past the documented limits: refused whatever the owner wants; at them, accepted.
    let limits = Contract::LvlxStaking
        .abi()
        .error("RewardReserveTermsBeyondLimits")
        .unwrap();
    let beyond = chain::hex0x(&limits.signature().as_bytes()[..4]);
    let max_lock = staking::MAX_LOCK_SECONDS.to_string();
    for (rate, lock) in [("1", "4294967295"), ("10001", "60")] {
        let refused = c.anvil.revert(
            &owner,
            &pool,
            Contract::LvlxStaking,
            "setTerms",
            &["1", "0", rate, lock],
        );
        assert!(refused.starts_with(&beyond), "rate {rate} lock {lock}");
    }
    c.send(
        &owner,
        &pool,
        Contract::LvlxStaking,
        "setTerms",
        &["1", "0", "10000", &max_lock],
    );
    // The chain's limits are the core's.
    assert_eq!(
        c.uint(&pool, Contract::LvlxStaking, "MAX_RATE_BPS", &[]),
        u128::from(staking::MAX_RATE_BPS)
    );
    assert_eq!(
        c.uint(&pool, Contract::LvlxStaking, "MAX_LOCK_SECONDS", &[]),
        u128::from(staking::MAX_LOCK_SECONDS)
    );

    // A lower rate, and then a longer lock, each mined before the stake: refused, nothing moved.
    for (rate, lock) in [
        (
            (tier.rate_bps - 1).to_string(),
            tier.lock_seconds.to_string(),
        ),
        (
            tier.rate_bps.to_string(),
            (tier.lock_seconds + 3_601).to_string(),
        ),
    ] {
        c.send(
            &owner,
            &pool,
            Contract::LvlxStaking,
            "setTerms",
            &["1", "0", &rate, &lock],
        );
        assert_eq!(
            c.refused(&member, &pool, Contract::LvlxStaking, "stake", &bounds),
            "chain-terms-moved"
        );
        assert_eq!(c.lvlx_of(&member), amount);
    }
    // Back to the quoted terms: the same stake goes through with exactly the quoted reward, and
    // a better rate would too (the bounds are a floor and a ceiling, not equalities).
    c.send(
        &owner,
        &pool,
        Contract::LvlxStaking,
        "setTerms",
        &[
            "1",
            "0",
            &(tier.rate_bps + 1).to_string(),
            &tier.lock_seconds.to_string(),
        ],
    );
    let receipt = c.send(&member, &pool, Contract::LvlxStaking, "stake", &bounds);
    assert_eq!(receipt["status"], "0x1");
    assert!(c.reserved(&pool) > quote.reward);
    // The NFT pool takes the same bounds.
    let nft_terms = DEFAULT_NFT_TERMS[0];
    c.buy_nft(&member, 1, 1);
    c.send(
        &member,
        &c.d.level_nft,
        Contract::LevelNft,
        "setApprovalForAll",
        &[&c.d.nft_staking, "true"],
    );
    let nft_quote = staking::quote(
        Pool::Nft,
        &nft_terms,
        1,
        c.free(&c.d.nft_staking),
        c.anvil.now(),
    )
    .unwrap();
    let too_much = (nft_quote.reward + 1).to_string();
    assert_eq!(
        c.refused(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "stake",
            &["1", "1", &too_much, &nft_quote.max_release.to_string()]
        ),
        "chain-terms-moved"
    );
}

/// Ownership moves in two steps and is never renounced: a renounced distributor would freeze
/// every claim, a renounced staking contract strand its free reserve. LVLX sent outside `fund`
/// becomes free reserve instead of being stuck.
#[test]
fn ownership_moves_in_two_steps_is_never_renounced_and_stray_lvlx_is_absorbed() {
    let c = Chain::start();
    let owner = c.owner().to_string();
    let next = c.accounts[5].clone();
    let d = &c.d;
    for (address, contract) in [
        (&d.ico_sale, Contract::IcoSale),
        (&d.level_nft, Contract::LevelNft),
        (&d.nft_sale, Contract::NftSale),
        (&d.nft_staking, Contract::NftStaking),
        (&d.lvlx_staking, Contract::LvlxStaking),
        (&d.activation_node, Contract::ActivationNode),
        (&d.claim_distributor, Contract::ClaimDistributor),
    ] {
        let refused = c
            .anvil
            .revert(&owner, address, contract, "renounceOwnership", &[]);
        let disabled = contract.abi().error("OwnedRenounceDisabled").unwrap();
        assert!(
            refused.starts_with(&chain::hex0x(&disabled.signature().as_bytes()[..4])),
            "{contract:?} renounces"
        );
        c.send(&owner, address, contract, "transferOwnership", &[&next]);
        let owner_now = c.anvil.read(address, contract, "owner", &[]);
        assert_eq!(
            owner_now[0],
            Token::Address(chain::address(&owner).unwrap()),
            "{contract:?} changed owner before acceptance"
        );
        if contract == Contract::ClaimDistributor {
            // The distributor's new owner waits the owner delay: a stolen owner key cannot take
            // it out of reach before the owner sees the offer (and withdraws it).
            let early = c
                .anvil
                .revert(&next, address, contract, "acceptOwnership", &[]);
            let too_early = contract.abi().error("ClaimDistributorTooEarly").unwrap();
            assert!(early.starts_with(&chain::hex0x(&too_early.signature().as_bytes()[..4])));
            c.anvil.set_next_time(c.anvil.now() + deploy::OWNER_DELAY);
            c.anvil.mine(1);
        }
        c.send(&next, address, contract, "acceptOwnership", &[]);
        let owner_now = c.anvil.read(address, contract, "owner", &[]);
        assert_eq!(owner_now[0], Token::Address(chain::address(&next).unwrap()));
    }
    // 5 LVLX sent by a plain transfer: counted as free reserve by anyone's call, once.
    let pool = d.lvlx_staking.clone();
    let free = c.free(&pool);
    c.send(
        &owner,
        &d.lvlx,
        Contract::Lvlx,
        "transfer",
        &[&pool, &(5 * LVLX).to_string()],
    );
    let stranger = c.accounts[3].clone();
    c.send(&stranger, &pool, Contract::LvlxStaking, "absorbStray", &[]);
    assert_eq!(c.free(&pool), free + 5 * LVLX);
    assert_eq!(
        c.refused(&stranger, &pool, Contract::LvlxStaking, "absorbStray", &[]),
        "chain-amount-too-small"
    );
}

/// Gas per member action against Synthetix StakingRewards' (about 147k stake, 137k withdraw,
/// 168k getReward): `scripts/bench-gas.sh` prints this table. Measured in the steady state: another
/// member has staked before (the contract's very first position also pays for turning its
/// counters from zero, once in its life).
#[test]
fn gas_per_member_action_stays_below_synthetix() {
    let c = Chain::start();
    let first = c.accounts[2].clone();
    c.buy_nft(&first, 1, 1);
    c.send(
        &first,
        &c.d.level_nft,
        Contract::LevelNft,
        "setApprovalForAll",
        &[&c.d.nft_staking, "true"],
    );
    c.send(
        &first,
        &c.d.nft_staking,
        Contract::NftStaking,
        "stake",
        &["1", "1", "0", ANY_RELEASE],
    );
    c.give_lvlx(&first, LVLX);
    c.stake_lvlx(&first, 1, LVLX);
    let m = c.accounts[1].clone();
    c.buy_nft(&m, 1, 1);
    c.send(
        &m,
        &c.d.level_nft,
        Contract::LevelNft,
        "setApprovalForAll",
        &[&c.d.nft_staking, "true"],
    );
    let nft_stake = gas(&c.send(
        &m,
        &c.d.nft_staking,
        Contract::NftStaking,
        "stake",
        &["1", "1", "0", ANY_RELEASE],
    ));
    c.give_lvlx(&m, 1000 * LVLX);
    let lvlx_stake = gas(&c.stake_lvlx(&m, 1, 1000 * LVLX));
    let t0 = c.anvil.now();
    c.anvil.set_next_time(t0 + 3600);
    let nft_interest = gas(&c.send(
        &m,
        &c.d.nft_staking,
        Contract::NftStaking,
        "withdrawInterest",
        &["2"],
    ));
    c.anvil.set_next_time(t0 + 7200);
    let lvlx_interest = gas(&c.send(
        &m,
        &c.d.lvlx_staking,
        Contract::LvlxStaking,
        "withdrawInterest",
        &["2"],
    ));
    c.anvil.set_next_time(t0 + 400 * 86_400);
    let nft_release = gas(&c.send(
        &m,
        &c.d.nft_staking,
        Contract::NftStaking,
        "release",
        &["2"],
    ));
    let lvlx_release = gas(&c.send(
        &m,
        &c.d.lvlx_staking,
        Contract::LvlxStaking,
        "release",
        &["2"],
    ));
    let rows = [
        ("NFT stake", nft_stake, 147_000),
        ("LVLX stake", lvlx_stake, 147_000),
        ("NFT interest withdrawal", nft_interest, 168_000),
        ("LVLX interest withdrawal", lvlx_interest, 168_000),
        (
            "NFT principal withdrawal (+ interest)",
            nft_release,
            137_000,
        ),
        (
            "LVLX principal withdrawal (+ interest)",
            lvlx_release,
            137_000,
        ),
    ];
    println!("{:<40} {:>10} {:>22}", "action", "gas", "Synthetix anchor");
    for (name, used, anchor) in rows {
        println!("{name:<40} {used:>10} {anchor:>22}");
        assert!(used < anchor, "{name}: {used} gas, anchor {anchor}");
    }
}

mod index {
    use super::*;
    use common::world_with;
    use lvlx_backend::chain::indexer::{Indexer, Progress};
    use lvlx_backend::cli::accounts::{DEMO_ADMIN, DEMO_USER};
    use lvlx_backend::live::Push;

    async fn catch_up(indexer: &Indexer) -> usize {
        common::anvil::catch_up(indexer).await
    }

    /// (pool, position, user id, withdrawn, closed) of every indexed position.
    async fn positions(w: &common::World) -> Vec<(String, i64, Option<i64>, String, bool)> {
        w.sql(move |c| {
            c.query_all(
                "SELECT pool, position, user_id, withdrawn, closed_at IS NOT NULL FROM stake_positions ORDER BY pool, position",
                lvlx_backend::args![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
        })
        .await
    }

    /// A node that answers slowly never holds the dashboard: past its 2 s wait the wallet line
    /// is unread (null) and the rest of the money account is the store's.
    #[tokio::test(flavor = "multi_thread")]
    async fn a_slow_node_leaves_the_wallet_unread_not_the_dashboard_waiting() {
        use common::rpc_proxy::{Faults, RpcProxy};
        let anvil = Anvil::start();
        let d = deploy::deploy_dev(&anvil.rpc).unwrap();
        let proxy = RpcProxy::start(&anvil.url).await;
        let w = world_with(|c| c.chain = Some(deploy::dev_section(&proxy.url, &d))).await;
        let wallet = lvlx_core::siwe::checksummed(&anvil.accounts()[1]).unwrap();
        w.sql(move |c| {
            c.execute(
                "UPDATE users SET wallet = ?1 WHERE email = ?2",
                lvlx_backend::args![wallet, DEMO_USER.0],
            )
        })
        .await;
        let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
        let read = w.call("GET", "/api/v1/dashboard", Some(&token), None).await;
        assert!(read.body["walletLvlx"].is_string(), "{}", read.body);
        proxy.set_faults(Faults {
            delay: std::time::Duration::from_secs(8),
            ..Faults::default()
        });
        let started = std::time::Instant::now();
        let slow = w.call("GET", "/api/v1/dashboard", Some(&token), None).await;
        assert_eq!(slow.status, 200, "{}", slow.body);
        assert!(slow.body["walletLvlx"].is_null(), "{}", slow.body);
        assert!(slow.body["account"]["bought"].is_string());
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    /// Chain reads are shared across page loads at a block: 200 loads of /staking and /network
    /// by two members cost the node one head call a load plus one read of what changed, not a
    /// ~35-call batch a load (4,100 calls for 100 /staking loads); a new block is read again, so
    /// a stake shows at once.
    #[tokio::test(flavor = "multi_thread")]
    async fn page_loads_share_the_chain_reads_of_a_block() {
        const LOADS: u64 = 100;
        let c = Chain::start();
        let url = c.anvil.url.clone();
        let calls_made = || lvlx_backend::chain::rpc::calls_made(&url);
        let w = world_with(|cfg| cfg.chain = Some(deploy::dev_section(&c.anvil.url, &c.d))).await;
        let (member, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
        assert_eq!(w.link_dev_wallet(&member, 1).await, 200);
        let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
        let before = calls_made();
        for i in 0..LOADS {
            let token = if i % 2 == 0 { &member } else { &admin };
            let page = w.call("GET", "/api/v1/staking", Some(token), None).await;
            assert_eq!(page.status, 200, "{}", page.body);
        }
        let staking = calls_made() - before;
        let before = calls_made();
        for _ in 0..LOADS {
            let page = w.call("GET", "/api/v1/network", Some(&member), None).await;
            assert_eq!(page.status, 200, "{}", page.body);
        }
        let network = calls_made() - before;
        println!(
            "node calls for {LOADS} /staking loads: {staking} (a batch a load was 4,100 for these two members: 47 calls a member's load, 35 an admin's); for {LOADS} /network loads: {network} (300 before)"
        );
        // A head call a load, the offer (34 calls) and the member's holdings (12) once; on
        // /network the node's terms (2) and the claim caps with the member's room (9) once.
        assert!(staking <= LOADS + 46, "{staking}");
        assert!(network <= LOADS + 2 + 9, "{network}");
        // A new block is read again: the member's LVLX shows at once.
        let shown = |page: &Value| page["lvlxBalance"].clone();
        let page = w
            .call("GET", "/api/v1/staking", Some(&member), None)
            .await
            .body;
        let held = shown(&page);
        c.give_lvlx(&c.accounts[1], 5 * LVLX);
        let page = w
            .call("GET", "/api/v1/staking", Some(&member), None)
            .await
            .body;
        assert_ne!(shown(&page), held, "{page}");
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn staking_events_are_indexed_once_across_restarts_and_follow_a_late_link() {
        let c = Chain::start();
        let (member, stranger) = (c.accounts[1].clone(), c.accounts[3].clone());
        // Ranges of 3 blocks, so the events span many steps.
        let chain = lvlx_backend::config::Chain {
            max_block_range: 3,
            poll_ms: 100,
            ..deploy::dev_section(&c.anvil.url, &c.d)
        };
        let w = world_with(|cfg| cfg.chain = Some(chain.clone())).await;
        let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
        assert_eq!(w.link_dev_wallet(&token, 1).await, 200);
        let mut pushes = w.app.hub.subscribe();

        // The member stakes NFTs and LVLX; a wallet nobody linked stakes too.
        for who in [&member, &stranger] {
            c.buy_nft(who, 2, 3);
            c.send(
                who,
                &c.d.level_nft,
                Contract::LevelNft,
                "setApprovalForAll",
                &[&c.d.nft_staking, "true"],
            );
            c.send(
                who,
                &c.d.nft_staking,
                Contract::NftStaking,
                "stake",
                &["2", "3", "0", ANY_RELEASE],
            );
        }
        c.give_lvlx(&member, 1000 * LVLX);
        c.stake_lvlx(&member, 2, 1000 * LVLX);
        let t0 = c.anvil.now();
        c.anvil.set_next_time(t0 + 10_000);
        c.send(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "withdrawInterest",
            &["1"],
        );
        c.anvil.set_next_time(t0 + 20_000);
        c.send(
            &member,
            &c.d.nft_staking,
            Contract::NftStaking,
            "withdrawInterest",
            &["1"],
        );

        // One indexer reads a range, then "the server restarts" and another catches up.
        let first = Indexer::new(&w.app, &chain);
        assert!(matches!(first.step().await.unwrap(), Progress::More { .. }));
        drop(first);
        let second = Indexer::new(&w.app, &chain);
        catch_up(&second).await;

        let reward = staking::reward(Pool::Nft, &DEFAULT_NFT_TERMS[1], 3).unwrap();
        let on_chain = c
            .anvil
            .read(&c.d.nft_staking, Contract::NftStaking, "positions", &["1"]);
        let withdrawn = match &on_chain[7] {
            Token::Uint(v) => v.as_u128(),
            other => panic!("{other:?}"),
        };
        assert!(withdrawn > 0 && withdrawn < reward);
        let user: i64 = w.user_id(DEMO_USER.0).await;
        let expected = vec![
            ("lvlx".to_string(), 1, Some(user), "0".to_string(), false),
            (
                "nft".to_string(),
                1,
                Some(user),
                withdrawn.to_string(),
                false,
            ),
            ("nft".to_string(), 2, None, "0".to_string(), false),
        ];
        assert_eq!(
            positions(&w).await,
            expected,
            "every position once, the withdrawals summed once"
        );
        let purchases: i64 = w.count("nft_purchases").await;
        assert_eq!(purchases, 2);
        let mut stake_pushes = Vec::new();
        while let Ok(push) = pushes.try_recv() {
            if let Push::Stake { event, user: u, .. } = push {
                stake_pushes.push((event, u.map(|u| u.0)));
            }
        }
        assert!(stake_pushes.contains(&("staked", Some(user))));
        assert_eq!(stake_pushes.iter().filter(|p| p.0 == "interest").count(), 2);

        // Everything read again from the start: nothing recorded twice, nothing pushed.
        let sale = c.d.ico_sale.to_lowercase();
        let start = c.d.start_block as i64;
        w.sql(move |c| {
            c.execute(
                "UPDATE chain_cursor SET next_block = ?1 WHERE contract = ?2",
                lvlx_backend::args![start, sale],
            )
        })
        .await;
        assert_eq!(catch_up(&second).await, 0);
        assert_eq!(positions(&w).await, expected);
        assert!(pushes.try_recv().is_err());

        // The member's page: positions with the core's figures at the chain's time.
        let page = w.call("GET", "/api/v1/staking", Some(&token), None).await;
        assert_eq!(page.status, 200, "{}", page.body);
        let body = page.body;
        assert_eq!(body["available"], true);
        assert_eq!(body["nfts"].as_array().unwrap().len(), 11);
        assert_eq!(
            body["nfts"][1]["price"],
            DEFAULT_NFT_TERMS[1].usdt_value.to_string()
        );
        assert_eq!(body["tiers"].as_array().unwrap().len(), DEFAULT_TIERS.len());
        assert_eq!(body["held"][1], "0", "all three NFTs are staked");
        let nft = &body["positions"]["nft"][0];
        assert_eq!(nft["kind"], 2);
        assert_eq!(nft["reward"], reward.to_string());
        let now = body["now"].as_u64().unwrap();
        let start = nft["startDate"].as_i64().unwrap() as u64 / 1000;
        let release = nft["withdrawDate"].as_i64().unwrap() as u64 / 1000;
        let accrued = staking::accrued(reward, start, release, now);
        assert_eq!(nft["accrued"], accrued.to_string());
        assert_eq!(nft["withdrawable"], (accrued - withdrawn).to_string());
        assert_eq!(body["positions"]["lvlx"].as_array().unwrap().len(), 1);
        // The login payload's withdrawNFTs: the interest paid, in base units.
        let (_, again) = w.login(DEMO_USER.0, DEMO_USER.1).await;
        assert_eq!(
            again["user"]["withdrawNFTs"]["total"],
            withdrawn.to_string(),
            "{again}"
        );
        assert_eq!(again["user"]["withdrawLVLXs"]["total"], "0");
        // The dashboard's money account: staked LVLX and NFTs, the LVLX release, interest paid
        // out, what is earned and not yet withdrawn.
        let dash = w.call("GET", "/api/v1/dashboard", Some(&token), None).await;
        assert_eq!(dash.status, 200, "{}", dash.body);
        let account = &dash.body["account"];
        let lvlx = &body["positions"]["lvlx"][0];
        assert_eq!(account["staked"], lvlx["amount"], "{account}");
        assert_eq!(account["nfts"], 3);
        let releases = [
            lvlx["withdrawDate"].as_i64().unwrap() / 1000,
            release as i64,
        ];
        assert_eq!(
            account["nextRelease"].as_i64().unwrap(),
            *releases.iter().filter(|&&r| r > now as i64).min().unwrap(),
            "the next release still ahead, LVLX or NFT"
        );
        assert_eq!(account["interestPaid"], withdrawn.to_string());
        let unpaid: u128 = account["accrued"].as_str().unwrap().parse().unwrap();
        assert!(
            unpaid + withdrawn
                <= reward + lvlx["reward"].as_str().unwrap().parse::<u128>().unwrap()
        );
        assert_eq!(account["claimable"], "0");
        assert_eq!(
            dash.body["walletLvlx"], body["lvlxBalance"],
            "the wallet as the staking page reads it"
        );
        assert!(body["lvlxBalance"].is_string());

        // The admin's reserve monitor reads the chain and the last 30 days' pace.
        let (admin, _) = w.login(DEMO_ADMIN.0, DEMO_ADMIN.1).await;
        assert_eq!(
            w.call("GET", "/api/v1/staking/reserve", Some(&token), None)
                .await
                .status,
            403
        );
        let monitor = w
            .call("GET", "/api/v1/staking/reserve", Some(&admin), None)
            .await
            .body;
        let reserved_now = c.reserved(&c.d.nft_staking);
        assert_eq!(monitor["nft"]["reserved"], reserved_now.to_string());
        assert_eq!(
            monitor["nft"]["reservedLast30Days"],
            (2 * reward).to_string()
        );
        assert_eq!(
            monitor["nft"]["weeksCovered"],
            staking::weeks_covered(c.free(&c.d.nft_staking), 2 * reward).unwrap() as u64
        );

        // The books: the positions agree with the events and with
        // the contracts' state; an interest withdrawal forgotten by hand is named by both.
        let honest = lvlx_backend::books::verify(&w.app.config, &w.app.store)
            .await
            .unwrap();
        assert!(honest.differences.is_empty(), "{:?}", honest.differences);
        w.sql(move |c| {
            c.execute(
                "UPDATE stake_positions SET withdrawn = '0' WHERE pool = 'nft' AND position = 1",
                lvlx_backend::args![],
            )
        })
        .await;
        let forgotten = lvlx_backend::books::verify(&w.app.config, &w.app.store)
            .await
            .unwrap();
        let state = forgotten
            .differences
            .iter()
            .find(|d| d.section == "contracts")
            .unwrap_or_else(|| panic!("{forgotten:?}"));
        assert_eq!(
            state.only_in_store,
            vec![format!(
                "nft staking reserved|{}|",
                reserved_now + withdrawn
            )]
        );
        assert_eq!(
            state.only_on_chain,
            vec![format!("nft staking reserved|{reserved_now}|")]
        );
        assert!(forgotten
            .differences
            .iter()
            .any(|d| d.section == "positions"));
        let back = withdrawn.to_string();
        w.sql(move |c| {
            c.execute(
                "UPDATE stake_positions SET withdrawn = ?1 WHERE pool = 'nft' AND position = 1",
                lvlx_backend::args![back],
            )
        })
        .await;

        // The stranger's wallet, linked later by another account, brings its position along.
        w.sql(move |c| {
            c.execute(
                "UPDATE users SET wallet = NULL WHERE email = ?1",
                lvlx_backend::args![DEMO_USER.0],
            )
        })
        .await;
        let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
        assert_eq!(w.link_dev_wallet(&token, 3).await, 200);
        let attached: Option<i64> = w
            .sql(move |c| {
                c.query_one(
                    "SELECT user_id FROM stake_positions WHERE pool = 'nft' AND position = 2",
                    lvlx_backend::args![],
                    |r| r.get(0),
                )
            })
            .await;
        assert_eq!(attached, Some(user));
    }
}

/// Random sequences of every action on both pools — stakes (with their quote's bounds, or
/// bounds terms may have moved past), interest withdrawals, releases, funding, the owner's
/// withdrawals of free reserve, terms changes and pauses, with time passing — keep the books
/// after every step: the pool's LVLX is principal + reserved + free, `reserved` is what open
/// positions were promised and not yet paid, and the NFT pool holds exactly its open positions'
/// NFTs. Steps: `LVLX_INVARIANT_STEPS` (default 120 in the test command).
#[test]
fn random_actions_on_both_pools_keep_the_books() {
    use rand::{Rng, SeedableRng};
    let steps: usize = std::env::var("LVLX_INVARIANT_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    let seed: u64 = std::env::var("LVLX_INVARIANT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(29);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let c = Chain::start();
    let owner = c.owner().to_string();
    let members: Vec<String> = c.accounts[1..5].to_vec();
    for m in &members {
        c.give_lvlx(m, 50_000 * LVLX);
        for (pool, _) in [(&c.d.lvlx_staking, 0), (&c.d.nft_staking, 1)] {
            c.send(
                m,
                &c.d.lvlx,
                Contract::Lvlx,
                "approve",
                &[pool, &u128::MAX.to_string()],
            );
        }
        c.send(
            m,
            &c.d.level_nft,
            Contract::LevelNft,
            "setApprovalForAll",
            &[&c.d.nft_staking, "true"],
        );
        c.buy_nft(m, 1, 6);
        c.buy_nft(m, 2, 4);
    }
    c.send(
        &owner,
        &c.d.lvlx,
        Contract::Lvlx,
        "approve",
        &[&c.d.lvlx_staking, &u128::MAX.to_string()],
    );
    c.send(
        &owner,
        &c.d.lvlx,
        Contract::Lvlx,
        "approve",
        &[&c.d.nft_staking, &u128::MAX.to_string()],
    );
    let pools = [
        (Pool::Lvlx, c.d.lvlx_staking.clone(), Contract::LvlxStaking),
        (Pool::Nft, c.d.nft_staking.clone(), Contract::NftStaking),
    ];
    let uint = |t: &Token| match t {
        Token::Uint(v) => v.as_u128(),
        Token::Bool(b) => u128::from(*b),
        other => panic!("{other:?}"),
    };
    let (mut sent, mut refused) = (0, 0);
    for step in 0..steps {
        let (pool, address, contract) = &pools[rng.gen_range(0..2)];
        let member = &members[rng.gen_range(0..members.len())];
        let count = c.uint(address, *contract, "positionCount", &[]);
        // A position of this pool (or the first, which may not exist yet).
        let position = (1 + rng.gen_range(0..count.max(1))).to_string();
        let now = c.anvil.now();
        let action = rng.gen_range(0..10);
        let outcome = match action {
            // Stake with the quote's bounds (usually) or bounds a change may have passed.
            0..=2 => {
                let kind = match pool {
                    Pool::Lvlx => rng.gen_range(1..=4u32),
                    Pool::Nft => rng.gen_range(1..=2u32),
                };
                let amount = match pool {
                    Pool::Lvlx => {
                        rng.gen_range(1..=3_000u128) * LVLX / rng.gen_range(1..=1_000u128)
                    }
                    Pool::Nft => rng.gen_range(1..=2u128),
                };
                let terms = c
                    .anvil
                    .read(address, *contract, "terms", &[&kind.to_string()]);
                let terms = staking::Terms {
                    kind,
                    usdt_value: uint(&terms[0]),
                    rate_bps: uint(&terms[1]) as u32,
                    lock_seconds: uint(&terms[2]) as u64,
                };
                let (min_reward, max_release) =
                    match staking::quote(*pool, &terms, amount, c.free(address), now) {
                        Ok(q) if rng.gen_bool(0.8) => (q.reward, q.max_release),
                        Ok(q) => (q.reward + 1, q.max_release),
                        Err(_) => (0, u64::MAX),
                    };
                owner::transact(
                    &c.anvil.rpc,
                    member,
                    address,
                    *contract,
                    "stake",
                    &[
                        &kind.to_string(),
                        &amount.to_string(),
                        &min_reward.to_string(),
                        &max_release.to_string(),
                    ],
                )
            }
            3 => owner::transact(
                &c.anvil.rpc,
                member,
                address,
                *contract,
                "withdrawInterest",
                &[&position],
            ),
            4 => owner::transact(
                &c.anvil.rpc,
                member,
                address,
                *contract,
                "release",
                &[&position],
            ),
            5 => {
                let amount = (rng.gen_range(1..=500u128) * LVLX).to_string();
                owner::transact(&c.anvil.rpc, &owner, address, *contract, "fund", &[&amount])
            }
            6 => {
                let amount = (c.free(address) / rng.gen_range(1..=4u128)).to_string();
                owner::transact(
                    &c.anvil.rpc,
                    &owner,
                    address,
                    *contract,
                    "withdrawFree",
                    &[&owner, &amount],
                )
            }
            7 => {
                let kind = match pool {
                    Pool::Lvlx => rng.gen_range(1..=4u32),
                    Pool::Nft => rng.gen_range(1..=2u32),
                };
                let value = if *pool == Pool::Nft {
                    rng.gen_range(1..=200u128) * 1_000_000
                } else {
                    0
                };
                let rate = rng.gen_range(1..=staking::MAX_RATE_BPS + 50);
                let lock = rng.gen_range(60..=staking::MAX_LOCK_SECONDS + 100);
                owner::transact(
                    &c.anvil.rpc,
                    &owner,
                    address,
                    *contract,
                    "setTerms",
                    &[
                        &kind.to_string(),
                        &value.to_string(),
                        &rate.to_string(),
                        &lock.to_string(),
                    ],
                )
            }
            8 => {
                let function = if rng.gen_bool(0.5) {
                    "pause"
                } else {
                    "unpause"
                };
                owner::transact(&c.anvil.rpc, &owner, address, *contract, function, &[])
            }
            _ => {
                c.anvil.set_next_time(now + rng.gen_range(1..=120 * 86_400));
                c.anvil.mine(1);
                Ok(Value::Null)
            }
        };
        match outcome {
            Ok(_) => sent += 1,
            Err(_) => refused += 1,
        }
        // The books, on both pools, after every step.
        for (pool, address, contract) in &pools {
            let count = c.uint(address, *contract, "positionCount", &[]);
            let (mut promised, mut nfts) = (0u128, [0u128; 12]);
            for id in 1..=count {
                let p = c
                    .anvil
                    .read(address, *contract, "positions", &[&id.to_string()]);
                if uint(&p[4]) == 0 {
                    promised += uint(&p[6]) - uint(&p[7]);
                    nfts[uint(&p[3]) as usize] += uint(&p[5]);
                }
            }
            let (free, reserved) = (c.free(address), c.reserved(address));
            assert_eq!(
                reserved, promised,
                "step {step} ({seed}): reserved is what open positions are owed"
            );
            let principal = match pool {
                Pool::Lvlx => c.uint(address, *contract, "totalStaked", &[]),
                Pool::Nft => {
                    for id in 1..=2u32 {
                        assert_eq!(
                            c.nfts_of(address, id),
                            nfts[id as usize],
                            "step {step}: NFTs of id {id}"
                        );
                    }
                    0
                }
            };
            assert_eq!(
                c.lvlx_of(address),
                principal + reserved + free,
                "step {step} ({seed}): balance = principal + reserved + free"
            );
        }
    }
    println!("invariant: {steps} steps, {sent} sent, {refused} refused (seed {seed})");
    assert!(
        sent > steps / 3 && refused > 0,
        "{sent} sent, {refused} refused"
    );
}
