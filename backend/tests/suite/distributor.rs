//! The claim distributor against an owner acting in bad faith through its Safe, as an outside
//! audit played it on anvil: members always get the whole delay to claim, with claims open,
//! before a new signer's vouchers pay; scheduled changes lapse; the caps are a rolling 24-hour
//! window, not a calendar day; the room left now is what the claim page shows; and the signer
//! events name the signer in a topic.

use crate::common;

use common::anvil::Anvil;
use lvlx_backend::chain::deploy::{self, Deployment, SafePlan, OWNER_DELAY};
use lvlx_backend::chain::owner::{self, Unlocked};
use lvlx_backend::chain::rpc::RpcError;
use lvlx_backend::network::signer::ClaimSigner;
use lvlx_core::chain::safe::{sent_by_owner, SafeTx};
use lvlx_core::chain::{self, Contract, Voucher};
use serde_json::{json, Value};
use warp::http::StatusCode;

const LVLX: u128 = 1_000_000_000_000_000_000;
const CD: Contract = Contract::ClaimDistributor;
const DAY: u64 = 86_400;
const GRACE: u64 = 14 * DAY;
const DEMO_USER: (&str, &str) = ("demo@lvlx.local", "Demo#2026x");

/// Mines a block at `seconds`: later calls see that time.
fn advance_to(anvil: &Anvil, seconds: u64) {
    anvil.set_next_time(seconds);
    anvil.mine(1);
}

/// The distributor's custom error (by name) a call from `from` meets; panics when it succeeds.
fn refused_with(anvil: &Anvil, from: &str, to: &str, function: &str, args: &[&str]) -> String {
    let data = anvil.revert(from, to, CD, function, args);
    CD.abi()
        .errors()
        .find(|e| data.starts_with(&chain::hex0x(&e.signature().as_bytes()[..4])))
        .map(|e| e.name.clone())
        .unwrap_or(data)
}

/// Whether a call from `from` would succeed now.
fn would_succeed(anvil: &Anvil, from: &str, to: &str, function: &str, args: &[&str]) -> bool {
    let data = chain::calldata(CD, function, args).unwrap();
    match anvil.rpc.call(
        "eth_call",
        json!([{"from": from, "to": to, "data": data}, "latest"]),
    ) {
        Ok(_) => true,
        Err(RpcError::Node { .. }) => false,
        Err(e) => panic!("{function}: {e}"),
    }
}

fn gas(receipt: &Value) -> u64 {
    lvlx_backend::chain::rpc::quantity(&receipt["gasUsed"]).unwrap()
}

/// The contracts' owner: a Safe of one owner (threshold 1), as the development chain makes it;
/// every owner call goes through `execTransaction`.
struct Owners<'a> {
    anvil: &'a Anvil,
    safe: String,
    by: String,
}

impl Owners<'_> {
    fn exec(&self, to: &str, function: &str, args: &[&str]) -> Value {
        let data = chain::calldata(CD, function, args).unwrap();
        let nonce = self
            .anvil
            .read_uint(&self.safe, Contract::Safe, "nonce", &[]) as u64;
        let by = chain::address(&self.by).unwrap();
        let exec = SafeTx::call(to, &data, nonce)
            .unwrap()
            .exec_calldata(&[(by, sent_by_owner(by))])
            .unwrap();
        owner::send(&self.anvil.rpc, &self.by, Some(&self.safe), &exec)
            .unwrap_or_else(|e| panic!("{function} through the Safe: {e}"))
    }

    /// The distributor's error when the Safe calls `function` now.
    fn refused(&self, to: &str, function: &str) -> String {
        refused_with(self.anvil, &self.safe, to, function, &[])
    }
}

/// The platform deployed with every contract owned by a one-owner Safe (dev account 0), the
/// distributor born with `signer`.
fn safe_deployment<'a>(anvil: &'a Anvil, signer: &str) -> (Deployment, Owners<'a>) {
    let accounts = anvil.accounts();
    let plan = deploy::Plan {
        safe: Some(SafePlan {
            owners: vec![accounts[0].clone()],
            threshold: 1,
        }),
        claim_signer: Some(signer.to_string()),
        ..deploy::dev_plan(&anvil.rpc).unwrap()
    };
    let d = deploy::deploy(&anvil.rpc, &Unlocked(plan.owner.clone()), &plan, &|_| {}).unwrap();
    let owners = Owners {
        anvil,
        safe: d.safe.clone().unwrap(),
        by: accounts[0].clone(),
    };
    (d, owners)
}

/// Vouchers for the distributor of `d`, submitted by a relayer.
struct Claims<'a> {
    anvil: &'a Anvil,
    distributor: String,
    relayer: String,
}

impl Claims<'_> {
    fn new<'a>(anvil: &'a Anvil, d: &Deployment) -> Claims<'a> {
        Claims {
            anvil,
            distributor: d.claim_distributor.clone(),
            relayer: anvil.accounts()[4].clone(),
        }
    }

    fn args(&self, by: &ClaimSigner, account: &str, cumulative: u128) -> Vec<String> {
        let voucher = Voucher {
            chain_id: 137,
            contract: chain::address(&self.distributor).unwrap(),
            account: chain::address(account).unwrap(),
            cumulative,
            deadline: self.anvil.now() + 3 * DAY,
        };
        vec![
            account.to_string(),
            cumulative.to_string(),
            voucher.deadline.to_string(),
            by.sign(&voucher),
        ]
    }

    /// Submits `by`'s voucher for `account`'s `cumulative`: its receipt.
    fn pay(&self, by: &ClaimSigner, account: &str, cumulative: u128) -> Value {
        let a = self.args(by, account, cumulative);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        owner::transact(
            &self.anvil.rpc,
            &self.relayer,
            &self.distributor,
            CD,
            "claim",
            &a,
        )
        .unwrap_or_else(|e| panic!("claim {cumulative} for {account}: {e}"))
    }

    /// The revert key of `by`'s voucher for `account`'s `cumulative` (it must not pay).
    fn refused(&self, by: &ClaimSigner, account: &str, cumulative: u128) -> &'static str {
        let a = self.args(by, account, cumulative);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        chain::revert_key(
            &self
                .anvil
                .revert(&self.relayer, &self.distributor, CD, "claim", &a),
        )
    }
}

fn lvlx_of(anvil: &Anvil, d: &Deployment, who: &str) -> u128 {
    anvil.read_uint(&d.lvlx, Contract::Lvlx, "balanceOf", &[who])
}

/// The audit's Medium, step by step through the Safe: announce a new signer and caps raised to
/// the maximum, lower the caps to zero and pause at once, apply everything once the 48 h pass,
/// drain. Now the signer cannot apply until claims have been open for a whole delay after the
/// pause, and in that stretch the member credited before the announcement claims everything.
#[test]
fn a_safe_in_bad_faith_cannot_drain_before_members_had_the_whole_delay_to_claim() {
    let anvil = Anvil::start();
    let server = ClaimSigner::new(&[0x42; 32]).unwrap();
    let evil = ClaimSigner::new(&[0x66; 32]).unwrap();
    let (d, owners) = safe_deployment(&anvil, &server.address());
    let dist = d.claim_distributor.clone();
    let claims = Claims::new(&anvil, &d);
    let accounts = anvil.accounts();
    let (member, thief) = (accounts[3].clone(), accounts[6].clone());
    let balance = lvlx_of(&anvil, &d, &dist);
    let read = |f: &str| anvil.read_uint(&dist, CD, f, &[]);
    // Credited by the server before anything was announced.
    let owed = 300_000 * LVLX;
    // The caps raised: twice the development chain's.
    let (claim_cap, day_cap, account_cap) = (
        (2 * deploy::DEV_CLAIM_CAP).to_string(),
        (2 * deploy::DEV_DAILY_CAP).to_string(),
        (2 * deploy::DEV_ACCOUNT_DAILY_CAP).to_string(),
    );
    let raised = [claim_cap.as_str(), day_cap.as_str(), account_cap.as_str()];

    // 1. A new signer and caps raised: both announced, neither applies early, and the new
    // signer's voucher for everything is refused.
    owners.exec(&dist, "setSigner", &[&evil.address()]);
    owners.exec(&dist, "setCaps", &raised);
    let announced = anvil.now();
    for function in ["applySigner", "applyCaps"] {
        assert_eq!(owners.refused(&dist, function), "ClaimDistributorTooEarly");
    }
    assert_eq!(
        claims.refused(&evil, &thief, balance),
        "chain-voucher-invalid"
    );
    // 2. Lowering acts at once: no claim can pay.
    owners.exec(&dist, "setCaps", &["0", "0", "0"]);
    assert_eq!(read("maxPerClaim"), 0);
    // 3. The raise is announced again while the caps stay at zero.
    owners.exec(&dist, "setCaps", &raised);
    assert_eq!(read("maxPerDay"), 0);
    assert_ne!(read("capsAt"), 0);
    // 4. Pausing acts at once: the member's honest voucher is refused.
    owners.exec(&dist, "pause", &[]);
    assert_eq!(claims.refused(&server, &member, owed), "chain-sale-paused");

    // 5. After the 48 h: the signer may not apply, since claims were never open after it was
    // announced. The raise applies (a raise only lets the current signer pay more), and the
    // unpause is asked for.
    advance_to(&anvil, announced + OWNER_DELAY + 60);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorClaimsClosed"
    );
    owners.exec(&dist, "applyCaps", &[]);
    owners.exec(&dist, "unpause", &[]);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorClaimsClosed"
    );
    advance_to(&anvil, anvil.now() + OWNER_DELAY);
    let opened = anvil.time_of(&owners.exec(&dist, "applyUnpause", &[]));
    assert_eq!(read("openSince"), u128::from(opened));
    // Claims are open: the signer waits a whole delay more from now.
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorTooEarly"
    );
    // 6. In that stretch the member claims what was credited before the announcement, with the
    // outgoing signer's voucher; the new signer's still pays nothing.
    let before = lvlx_of(&anvil, &d, &member);
    claims.pay(&server, &member, owed);
    assert_eq!(lvlx_of(&anvil, &d, &member) - before, owed);
    assert_eq!(
        claims.refused(&evil, &thief, balance - owed),
        "chain-voucher-invalid"
    );
    // Lowering a cap in the stretch starts it again, to the second.
    advance_to(&anvil, opened + OWNER_DELAY - 100);
    let lowered = (2 * deploy::DEV_CLAIM_CAP - 1).to_string();
    let restarted =
        anvil.time_of(&owners.exec(&dist, "setCaps", &[&lowered, &day_cap, &account_cap]));
    advance_to(&anvil, opened + OWNER_DELAY + 10);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorTooEarly"
    );
    advance_to(&anvil, restarted + OWNER_DELAY - 1);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorTooEarly"
    );
    // A whole delay of open claims later the new signer applies; only then do its vouchers pay
    // (within the caps), after the member was paid.
    advance_to(&anvil, restarted + OWNER_DELAY);
    owners.exec(&dist, "applySigner", &[]);
    let taken = 2 * deploy::DEV_CLAIM_CAP - 1;
    claims.pay(&evil, &thief, taken);
    assert_eq!(lvlx_of(&anvil, &d, &dist), balance - owed - taken);
    assert_eq!(lvlx_of(&anvil, &d, &member) - before, owed);
}

/// One state of the distributor in the random run below, in force from `at` to the next.
#[derive(Debug, Clone, Copy)]
struct State {
    at: u64,
    /// Unpaused, every cap at least its floor, and LVLX for one whole claim.
    open: bool,
    caps: [u128; 3],
    spent: u128,
    spent_at: u64,
}

impl State {
    /// The least of the caps: one whole claim.
    fn one(&self) -> u128 {
        self.caps.into_iter().min().unwrap()
    }

    /// The first second from `at` on at which the room holds one whole claim: it only grows
    /// while this state holds.
    fn room_back(&self) -> u64 {
        let (one, day) = (self.one(), self.caps[1]);
        if self.room(self.at) >= one || day == 0 {
            return self.at;
        }
        let wait = (self.spent + one - day) * u128::from(DAY);
        let back = self.spent_at + (wait.div_ceil(day) as u64).min(DAY);
        assert!(self.room(back) >= one && (back == self.at || self.room(back - 1) < one));
        back.max(self.at)
    }

    /// What the shared daily cap leaves at `t` (a rolling window: what claims took comes back
    /// at the cap's rate over 24 hours, rounded down).
    fn room(&self, t: u64) -> u128 {
        let day = self.caps[1];
        let elapsed = u128::from(t - self.spent_at);
        let used = if elapsed >= u128::from(DAY) {
            0
        } else {
            self.spent.saturating_sub(day * elapsed / u128::from(DAY))
        };
        day.saturating_sub(used)
    }
}

/// When claims' stretch began by the rule, read from the history (each state holds until the
/// next; the last until now): a state closed, a cap lowered, or the room under one whole claim
/// ends it; `first` is what the contract said at the first state. None while claims are closed.
fn stretch_start(history: &[State], first: u64) -> Option<u64> {
    let mut i = history.len() - 1;
    loop {
        let h = &history[i];
        if !h.open {
            return None;
        }
        let back = h.room_back();
        if i == 0 {
            return Some(back.max(first));
        }
        if back > h.at {
            return Some(back);
        }
        let prev = &history[i - 1];
        let lowered = prev
            .caps
            .iter()
            .zip(h.caps)
            .any(|(before, after)| after < *before);
        if !prev.open || lowered || prev.room_back() > h.at {
            return Some(h.at);
        }
        i -= 1;
    }
}

/// What the distributor's owner can do, drawn at random, with members' claims and the LVLX it
/// holds, never lets a new signer apply unless, for the whole delay before it applies (and
/// after it was announced), claims were open: unpaused, every cap at least its floor and none
/// lowered, the LVLX for one whole claim, and room for one whole claim under the shared daily
/// cap (the least of the caps); and whenever that held (its time come and not lapsed), the
/// signer can apply. `LVLX_DISTRIBUTOR_STEPS` (default 300) and `LVLX_DISTRIBUTOR_SEED`.
#[test]
fn a_new_signer_applies_only_after_a_whole_delay_of_open_claims_whatever_the_owner_does() {
    use rand::{Rng, SeedableRng};
    let steps: usize = std::env::var("LVLX_DISTRIBUTOR_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("LVLX_DISTRIBUTOR_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(11);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let anvil = Anvil::start();
    let keys: Vec<ClaimSigner> = (0..3u8)
        .map(|i| ClaimSigner::new(&[0x51 + i; 32]).unwrap())
        .collect();
    let d = deployment_with(&anvil, &keys[0].address(), |plan| {
        plan.claims_fund = 50_000_000 * LVLX
    });
    let owner = d.owner.clone();
    let dist = d.claim_distributor.clone();
    let claims = Claims::new(&anvil, &d);
    let members: Vec<String> = anvil.accounts()[5..8].to_vec();
    let mut cumulative = [0u128; 3];
    let read = |f: &str| anvil.read_uint(&dist, CD, f, &[]);
    let floors = [
        read("minPerClaim"),
        read("minPerDay"),
        read("minPerAccountDay"),
    ];
    let caps_now = || {
        [
            read("maxPerClaim"),
            read("maxPerDay"),
            read("maxPerAccountDay"),
        ]
    };
    let mut history: Vec<State> = Vec::new();
    let mut announced: Option<(u64, usize)> = None;
    let mut signer = 0usize;
    let snapshot = |history: &mut Vec<State>| {
        let caps = caps_now();
        let paused = anvil.read(&dist, CD, "paused", &[])[0] == ethers_core::abi::Token::Bool(true);
        let funds = lvlx_of(&anvil, &d, &dist);
        let one = caps.into_iter().min().unwrap();
        let open = !paused && caps.iter().zip(floors).all(|(c, f)| *c >= f) && funds >= one;
        history.push(State {
            at: anvil.now(),
            open,
            caps,
            spent: read("spent"),
            spent_at: read("spentAt") as u64,
        });
    };
    snapshot(&mut history);
    let first = read("openSince") as u64;
    let (mut applied, mut refused_apply, mut allowed_steps, mut paid) = (0, 0, 0, 0);
    let mut opened_steps = 0;
    for step in 0..steps {
        let now = anvil.now();
        // The property, read from the history: whether the signer may apply now.
        let allowed = announced.is_some_and(|(a, _)| {
            let at = a + OWNER_DELAY;
            let from = now.saturating_sub(OWNER_DELAY);
            // The states in force at some time in [from, now] (each holds until the next), with
            // the time each starts to count; the room only grows within one, so it is least there.
            let stretch: Vec<(u64, &State)> = history
                .iter()
                .enumerate()
                .filter(|(i, h)| h.at <= now && history.get(i + 1).is_none_or(|n| n.at > from))
                .map(|(_, h)| (h.at.max(from), h))
                .collect();
            now >= at
                && now < at + GRACE
                && stretch
                    .iter()
                    .all(|(start, h)| h.open && h.room(*start) >= h.one())
                && stretch.windows(2).all(|w| {
                    w[0].1
                        .caps
                        .iter()
                        .zip(w[1].1.caps)
                        .all(|(before, after)| after >= *before)
                })
        });
        let can = would_succeed(&anvil, &owner, &dist, "applySigner", &[]);
        // And when the stretch began, as the contract says it.
        let expected = stretch_start(&history, first).filter(|s| *s <= now);
        assert_eq!(
            read("openSince") as u64,
            expected.unwrap_or(0),
            "step {step} (seed {seed}): openSince; history {:?}",
            &history[history.len().saturating_sub(6)..]
        );
        opened_steps += usize::from(expected.is_some());
        allowed_steps += usize::from(allowed);
        assert_eq!(
            can, allowed,
            "step {step} (seed {seed}): applySigner {can}, the rule says {allowed}; announced {announced:?}, now {now}, history {:?}",
            &history[history.len().saturating_sub(6)..]
        );
        let f = |x: u128| x.to_string();
        // New caps: mostly the same or higher (at least the floor, at most 40 times it), now and
        // then lower, rarely under the floor.
        let cap = |rng: &mut rand::rngs::StdRng, now: u128, floor: u128| match rng.gen_range(0..40)
        {
            0 => floor - 1,
            1..=4 => floor.max(now / 2),
            5..=25 => now.max(floor),
            _ => (now.max(floor) * rng.gen_range(2..4)).min(floor * 40),
        };
        // Weights: a signer announced or applied, pausing and resuming, caps set (lowered or
        // raised) and applied, cancelling, members' claims, funding, time passing.
        let action = match rng.gen_range(0..26) {
            _ if can && rng.gen_bool(0.5) => 1,
            0..=1 => 0,
            2..=3 => 1,
            4 if rng.gen_bool(0.5) => 2,
            5..=7 => 3,
            8..=10 => 4,
            11 => 5,
            12..=13 => 6,
            14 if rng.gen_bool(0.3) => 7,
            15..=19 => 9,
            20 => 10,
            _ => 8,
        };
        match action {
            // A pending signer is replaced now and then; mostly time passes instead.
            0 if announced.is_some() && rng.gen_range(0..4) != 0 => {
                advance_to(&anvil, anvil.now() + rng.gen_range(3_600..OWNER_DELAY));
            }
            0 => {
                let next = (signer + rng.gen_range(1..keys.len())) % keys.len();
                owner::transact(
                    &anvil.rpc,
                    &owner,
                    &dist,
                    CD,
                    "setSigner",
                    &[&keys[next].address()],
                )
                .unwrap();
                announced = Some((anvil.now(), next));
            }
            1 if can => {
                owner::transact(&anvil.rpc, &owner, &dist, CD, "applySigner", &[]).unwrap();
                signer = announced.take().unwrap().1;
                applied += 1;
            }
            1 => refused_apply += 1,
            2 => {
                let _ = owner::transact(&anvil.rpc, &owner, &dist, CD, "pause", &[]);
            }
            3 => {
                let _ = owner::transact(&anvil.rpc, &owner, &dist, CD, "unpause", &[]);
            }
            4 => {
                let _ = owner::transact(&anvil.rpc, &owner, &dist, CD, "applyUnpause", &[]);
            }
            5 => {
                let now = caps_now();
                let caps = [
                    cap(&mut rng, now[0], floors[0]),
                    cap(&mut rng, now[1], floors[1]),
                    cap(&mut rng, now[2], floors[2]),
                ];
                let _ = owner::transact(
                    &anvil.rpc,
                    &owner,
                    &dist,
                    CD,
                    "setCaps",
                    &[&f(caps[0]), &f(caps[1]), &f(caps[2])],
                );
            }
            6 => {
                let _ = owner::transact(&anvil.rpc, &owner, &dist, CD, "applyCaps", &[]);
            }
            7 => {
                if owner::transact(&anvil.rpc, &owner, &dist, CD, "cancelSigner", &[]).is_ok() {
                    announced = None;
                }
            }
            9 => {
                // A member claims what the caps and the LVLX leave now, or part of it.
                let who = rng.gen_range(0..members.len());
                let caps = caps_now();
                let most = caps[0]
                    .min(read("room"))
                    .min(anvil.read_uint(&dist, CD, "accountRoom", &[&members[who]]))
                    .min(lvlx_of(&anvil, &d, &dist));
                if most > 0
                    && !anvil.read(&dist, CD, "paused", &[])[0]
                        .clone()
                        .into_bool()
                        .unwrap()
                {
                    let amount = match rng.gen_range(0..3) {
                        0 => most,
                        _ => rng.gen_range(1..=most),
                    };
                    cumulative[who] += amount;
                    claims.pay(&keys[signer], &members[who], cumulative[who]);
                    paid += 1;
                }
            }
            10 => {
                // LVLX sent to the distributor, seen at once or not at all until the next claim.
                let fund = f(rng.gen_range(1..4) * caps_now().into_iter().min().unwrap());
                owner::transact(
                    &anvil.rpc,
                    &owner,
                    &d.lvlx,
                    Contract::Lvlx,
                    "transfer",
                    &[&dist, &fund],
                )
                .unwrap();
                owner::transact(&anvil.rpc, &owner, &dist, CD, "checkFunds", &[]).unwrap();
            }
            _ => {
                // Time passes: minutes to days, now and then past the grace period.
                let seconds = match rng.gen_range(0..10) {
                    0 => GRACE + rng.gen_range(0..DAY),
                    1..=4 => rng.gen_range(60..OWNER_DELAY),
                    _ => rng.gen_range(OWNER_DELAY / 2..OWNER_DELAY * 2),
                };
                advance_to(&anvil, anvil.now() + seconds);
            }
        }
        snapshot(&mut history);
    }
    println!(
        "distributor rule: {steps} steps ({opened_steps} open, {allowed_steps} where the signer could apply, {paid} claims), the signer applied {applied} times, refused {refused_apply} (seed {seed})"
    );
    assert!(
        applied > 0,
        "no signer ever applied: the run tested nothing"
    );
}

/// A signer change, a caps raise, an unpause and a handover all announced, then applied 400 days
/// later: each has lapsed and must be announced again. Within the grace period they apply.
#[test]
fn scheduled_changes_lapse_after_the_grace_period() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let accounts = anvil.accounts();
    let (owner, next) = (d.owner.clone(), accounts[7].clone());
    let dist = d.claim_distributor.clone();
    let send = |function: &str, args: &[&str]| {
        owner::transact(&anvil.rpc, &owner, &dist, CD, function, args)
            .unwrap_or_else(|e| panic!("{function}: {e}"))
    };
    let raised = (2 * deploy::DEV_CLAIM_CAP).to_string();
    let day_cap = deploy::DEV_DAILY_CAP.to_string();
    let account_cap = deploy::DEV_ACCOUNT_DAILY_CAP.to_string();
    send("setSigner", &[&accounts[9]]);
    send("setCaps", &[&raised, &day_cap, &account_cap]);
    send("pause", &[]);
    send("unpause", &[]);
    send("transferOwnership", &[&next]);
    advance_to(&anvil, anvil.now() + 400 * DAY);
    for (from, function) in [
        (&owner, "applySigner"),
        (&owner, "applyCaps"),
        (&owner, "applyUnpause"),
        (&next, "acceptOwnership"),
    ] {
        assert_eq!(
            refused_with(&anvil, from, &dist, function, &[]),
            "ClaimDistributorLapsed",
            "{function}"
        );
    }
    // Announced again, each applies within the grace period, to its last second, and not after.
    send("pause", &[]); // drops the lapsed unpause
    send("unpause", &[]);
    let unpause_at = anvil.read_uint(&dist, CD, "unpauseAt", &[]) as u64;
    anvil.set_next_time(anvil.now() + 10);
    send("setCaps", &[&raised, &day_cap, &account_cap]);
    let caps_at = anvil.read_uint(&dist, CD, "capsAt", &[]) as u64;
    anvil.set_next_time(unpause_at + GRACE - 1);
    send("applyUnpause", &[]);
    advance_to(&anvil, caps_at + GRACE - 1);
    assert!(would_succeed(&anvil, &owner, &dist, "applyCaps", &[]));
    advance_to(&anvil, caps_at + GRACE);
    assert_eq!(
        refused_with(&anvil, &owner, &dist, "applyCaps", &[]),
        "ClaimDistributorLapsed"
    );
    // The signer announced 400 days ago lapsed too; a new announcement waits its delay of open
    // claims and applies.
    send("setSigner", &[&accounts[9]]);
    advance_to(&anvil, anvil.now() + OWNER_DELAY);
    send("applySigner", &[]);
    assert_eq!(
        anvil.read(&dist, CD, "signer", &[])[0],
        ethers_core::abi::Token::Address(chain::address(&accounts[9]).unwrap())
    );
    send("transferOwnership", &[&next]);
    advance_to(&anvil, anvil.now() + OWNER_DELAY);
    owner::transact(&anvil.rpc, &next, &dist, CD, "acceptOwnership", &[]).unwrap();
}

/// The audit's two seconds: 1,000 + 500 at 23:59:58 and 1,500 more at 00:00:00 took 3,000 LVLX
/// from an account capped at 1,500 a day. The caps are a rolling window now: what a claim takes
/// comes back at the cap's rate over 24 hours, whatever the calendar says; the gas it costs is
/// printed.
#[test]
fn the_daily_caps_roll_over_24_hours_not_a_calendar_day() {
    let anvil = Anvil::start();
    let signer = ClaimSigner::new(&[0x44; 32]).unwrap();
    let d = deploy::deploy_dev_signed(&anvil.rpc, &signer.address()).unwrap();
    let accounts = anvil.accounts();
    let dist = d.claim_distributor.clone();
    let lvlx = |n: u128| (n * LVLX).to_string();
    owner::transact(
        &anvil.rpc,
        &d.owner,
        &dist,
        CD,
        "setCaps",
        &[&lvlx(1_500), &lvlx(3_000), &lvlx(1_500)],
    )
    .unwrap();
    let claims = Claims::new(&anvil, &d);
    let (a, b, c) = (&accounts[3], &accounts[5], &accounts[6]);
    let midnight = (anvil.now() / DAY + 2) * DAY;
    let at = |t: u64| anvil.set_next_time(t);
    at(midnight - 3);
    let first = claims.pay(&signer, a, 1_000 * LVLX);
    at(midnight - 2);
    let again = claims.pay(&signer, a, 1_500 * LVLX);
    at(midnight - 1);
    claims.pay(&signer, b, 1_500 * LVLX);
    let (start, last) = (anvil.time_of(&first), anvil.time_of(&again));
    assert!(last < midnight, "{last} {midnight}");
    // What `seconds` give back of the account's cap (rounded down, as the contract does).
    let back = |seconds: u64| 1_500 * LVLX * u128::from(seconds) / u128::from(DAY);
    advance_to(&anvil, midnight);
    // A new calendar day: the account's 1,500 and everyone's 3,000 are still spent, but for
    // what the seconds since gave back.
    assert_eq!(
        anvil.read_uint(&dist, CD, "accountRoom", &[a]),
        back(last - start) + back(midnight - last)
    );
    assert!(anvil.read_uint(&dist, CD, "room", &[]) < LVLX / 5);
    assert_eq!(
        claims.refused(&signer, c, 1_500 * LVLX),
        "chain-claim-daily-cap"
    );
    assert!(claims
        .refused(&signer, a, 3_000 * LVLX)
        .starts_with("chain-claim-"));
    // They come back at the cap's rate: half a day after the account's last claim, half of its
    // cap; everyone's 3,000 at 125 LVLX an hour.
    advance_to(&anvil, last + DAY / 2);
    assert_eq!(
        anvil.read_uint(&dist, CD, "accountRoom", &[a]),
        750 * LVLX + back(last - start)
    );
    let room = anvil.read_uint(&dist, CD, "room", &[]);
    assert!(room > 1_400 * LVLX && room < 1_600 * LVLX, "{room}");
    assert_eq!(
        claims.refused(&signer, a, 2_251 * LVLX),
        "chain-claim-account-daily-cap"
    );
    let rolled = claims.pay(&signer, a, 2_250 * LVLX);
    // A whole day after its last claim the account's cap is whole again.
    advance_to(&anvil, last + DAY / 2 + DAY);
    assert_eq!(
        anvil.read_uint(&dist, CD, "accountRoom", &[a]),
        1_500 * LVLX
    );
    let (first, again, rolled) = (gas(&first), gas(&again), gas(&rolled));
    println!(
        "gas: claim under the rolling window (an empty account's first) {first}, (again, 1 s later) {again}, (half drained) {rolled}"
    );
}

/// A few accounts can use up what everyone may claim: three claims of 1,000 take the 3,000 the
/// distributor lets out at once. The network page says what is left now for everyone and for
/// the member, and how fast it comes back; a claim asked for then pays what has come back.
#[tokio::test(flavor = "multi_thread")]
async fn the_claim_page_shows_the_room_left_now_after_a_few_accounts_used_it() {
    let anvil = Anvil::start();
    // The server's claim key, which the distributor is born with.
    let key = ClaimSigner::new(&[0x5a; 32]).unwrap();
    let d = deploy::deploy_dev_signed(&anvil.rpc, &key.address()).unwrap();
    let chain = deploy::dev_section(&anvil.url, &d);
    let w = common::world_with(|c| {
        c.chain = Some(chain);
        c.claim_signing_key = Some(lvlx_backend::config::Secret::new("5a".repeat(32)));
    })
    .await;
    assert_eq!(w.app.claim_signer.address(), key.address());
    let dist = d.claim_distributor.clone();
    let lvlx = |n: u128| (n * LVLX).to_string();
    owner::transact(
        &anvil.rpc,
        &d.owner,
        &dist,
        CD,
        "setCaps",
        &[&lvlx(1_000), &lvlx(3_000), &lvlx(1_000)],
    )
    .unwrap();
    let accounts = anvil.accounts();
    let wallet = lvlx_core::siwe::checksummed(&accounts[1]).unwrap();
    let (stored, rewards) = (wallet.clone(), lvlx(1_000));
    w.sql(move |c| {
        c.execute(
            "UPDATE users SET wallet = ?1, add_rewards = ?2 WHERE email = ?3",
            lvlx_backend::args![stored, rewards, DEMO_USER.0],
        )
    })
    .await;
    let (token, _) = w.login(DEMO_USER.0, DEMO_USER.1).await;
    // Three other accounts claim 1,000 each in one block.
    let claims = Claims::new(&anvil, &d);
    anvil.rpc.call("evm_setAutomine", json!([false])).unwrap();
    let mut hashes = Vec::new();
    for who in [&accounts[3], &accounts[5], &accounts[6]] {
        let a = claims.args(&w.app.claim_signer, who, 1_000 * LVLX);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let data = chain::calldata(CD, "claim", &a).unwrap();
        let hash = anvil
            .rpc
            .call(
                "eth_sendTransaction",
                json!([{"from": claims.relayer, "to": dist, "data": data, "gas": "0x30000"}]),
            )
            .unwrap();
        hashes.push(hash.as_str().unwrap().to_string());
    }
    let spent_at = anvil.now() + 10;
    advance_to(&anvil, spent_at);
    anvil.rpc.call("evm_setAutomine", json!([true])).unwrap();
    for hash in &hashes {
        owner::receipt(&anvil.rpc, hash).unwrap();
    }
    let page = w.call("GET", "/api/v1/network", Some(&token), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let caps = &page.body["claimCaps"];
    assert_eq!(caps["maxPerDay"], lvlx(3_000), "{}", page.body);
    assert_eq!(caps["left"], "0");
    assert_eq!(caps["maxPerAccountDay"], lvlx(1_000));
    assert_eq!(caps["leftForYou"], lvlx(1_000));
    assert_eq!(caps["maxPerClaim"], lvlx(1_000));
    // Asked now, the claim names the cap that holds it.
    let asked = w
        .call("POST", "/api/v1/claims", Some(&token), Some(json!({})))
        .await;
    assert_eq!(
        (asked.status, asked.body["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("chain-claim-daily-cap")),
        "{}",
        asked.body
    );
    // An hour later 125 LVLX have come back: the page says so and a claim pays them.
    advance_to(&anvil, spent_at + 3_600);
    let page = w.call("GET", "/api/v1/network", Some(&token), None).await;
    assert_eq!(page.body["claimCaps"]["left"], lvlx(125), "{}", page.body);
    let asked = w
        .call("POST", "/api/v1/claims", Some(&token), Some(json!({})))
        .await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    assert_eq!(asked.body["amount"], lvlx(125));
    assert_eq!(asked.body["rest"], lvlx(875));
}

/// Monitors filter the signer events by address: `SignerScheduled` and `SignerChanged` carry
/// the signer in an indexed topic.
#[test]
fn the_signer_events_name_the_signer_in_a_topic() {
    let anvil = Anvil::start();
    let accounts = anvil.accounts();
    let d = deploy::deploy_dev_signed(&anvil.rpc, &accounts[8]).unwrap();
    let dist = d.claim_distributor.clone();
    owner::transact(
        &anvil.rpc,
        &d.owner,
        &dist,
        CD,
        "setSigner",
        &[&accounts[9]],
    )
    .unwrap();
    let topic = |name: &str| chain::hex0x(CD.abi().event(name).unwrap().signature().as_bytes());
    let padded = |a: &str| format!("0x{:0>64}", a.trim_start_matches("0x").to_lowercase());
    for (event, signer) in [
        ("SignerChanged", &accounts[8]),
        ("SignerScheduled", &accounts[9]),
    ] {
        let logs = anvil
            .rpc
            .call(
                "eth_getLogs",
                json!([{"address": dist, "fromBlock": "0x0", "toBlock": "latest",
                    "topics": [topic(event), padded(signer)]}]),
            )
            .unwrap();
        assert_eq!(logs.as_array().unwrap().len(), 1, "{event}: {logs}");
    }
}

/// A stolen signing key: the owners pause at once and announce a new signer; the outgoing
/// key's consent (what `lvlx claims consent` prints) lets the change apply after its delay while
/// claims stay paused, so the thief never gets a stretch of open claims. Without the outgoing
/// key nobody can consent: the owner's own signature, a stranger's, or the outgoing key's for
/// an earlier announcement are refused.
#[test]
fn the_outgoing_signer_s_consent_replaces_a_stolen_key_while_claims_stay_paused() {
    let anvil = Anvil::start();
    let stolen = ClaimSigner::new(&[0x42; 32]).unwrap();
    let next = ClaimSigner::new(&[0x43; 32]).unwrap();
    let stranger = ClaimSigner::new(&[0x44; 32]).unwrap();
    let (d, owners) = safe_deployment(&anvil, &stolen.address());
    let dist = d.claim_distributor.clone();
    let claims = Claims::new(&anvil, &d);
    let thief = anvil.accounts()[6].clone();
    let consent = |by: &ClaimSigner, at: u64, nonce: u64| {
        by.sign_rotation(&lvlx_core::chain::Rotation {
            chain_id: 137,
            contract: chain::address(&dist).unwrap(),
            new_signer: chain::address(&next.address()).unwrap(),
            at,
            nonce,
        })
    };
    let with = |signature: &str| {
        refused_with(
            &anvil,
            &owners.safe,
            &dist,
            "applySignerWithConsent",
            &[signature],
        )
    };
    owners.exec(&dist, "pause", &[]);
    owners.exec(&dist, "setSigner", &[&stranger.address()]);
    let earlier = anvil.read_uint(&dist, CD, "signerAt", &[]) as u64;
    advance_to(&anvil, anvil.now() + 10);
    owners.exec(&dist, "setSigner", &[&next.address()]);
    let at = anvil.read_uint(&dist, CD, "signerAt", &[]) as u64;
    let nonce = anvil.read_uint(&dist, CD, "signerNonce", &[]) as u64;
    assert_eq!(nonce, 2);
    // Before its time, consent or not.
    assert_eq!(
        with(&consent(&stolen, at, nonce)),
        "ClaimDistributorTooEarly"
    );
    advance_to(&anvil, at);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorClaimsClosed"
    );
    for signature in [
        consent(&stranger, at, nonce),
        consent(&next, at, nonce),
        consent(&stolen, earlier, nonce - 1),
        consent(&stolen, at + 1, nonce),
        consent(&stolen, at, nonce - 1),
    ] {
        assert_eq!(with(&signature), "ClaimDistributorBadSignature");
    }
    let receipt = owners.exec(
        &dist,
        "applySignerWithConsent",
        &[&consent(&stolen, at, nonce)],
    );
    assert!(gas(&receipt) > 0);
    assert_eq!(
        anvil.read(&dist, CD, "signer", &[])[0],
        ethers_core::abi::Token::Address(chain::address(&next.address()).unwrap())
    );
    // Claims are still paused, and once they resume the stolen key pays nothing.
    assert_eq!(claims.refused(&stolen, &thief, LVLX), "chain-sale-paused");
    owners.exec(&dist, "unpause", &[]);
    advance_to(&anvil, anvil.now() + OWNER_DELAY);
    owners.exec(&dist, "applyUnpause", &[]);
    assert_eq!(
        claims.refused(&stolen, &thief, LVLX),
        "chain-voucher-invalid"
    );
    claims.pay(&next, &thief, LVLX);
}

/// `lvlx claims consent` prints the configured key's consent to the announced signer change,
/// which the owners' Safe applies while claims stay paused; a server whose key is not the
/// signer in place refuses to print one.
#[test]
fn lvlx_claims_consent_prints_the_outgoing_key_s_consent() {
    let anvil = Anvil::start();
    let server = ClaimSigner::new(&[0x11; 32]).unwrap();
    let next = ClaimSigner::new(&[0x12; 32]).unwrap();
    let (d, owners) = safe_deployment(&anvil, &server.address());
    let dist = d.claim_distributor.clone();
    owners.exec(&dist, "pause", &[]);
    owners.exec(&dist, "setSigner", &[&next.address()]);
    let dir = tempfile::tempdir().unwrap();
    let consent = |key: &str| {
        let config = dir.path().join(format!("{key}.toml"));
        std::fs::write(
            &config,
            format!("claim_signing_key = \"{}\"\n", key.repeat(32)),
        )
        .unwrap();
        deploy::write_section(&config, &deploy::dev_section(&anvil.url, &d)).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_lvlx"))
            .args(["claims", "consent"])
            .env("LVLX_CONFIG", &config)
            .env("LVLX_DATA_DIR", dir.path().join(key))
            .output()
            .unwrap()
    };
    let stranger = consent("13");
    assert!(!stranger.status.success());
    assert!(
        String::from_utf8_lossy(&stranger.stderr).contains("is not the distributor's signer"),
        "{}",
        String::from_utf8_lossy(&stranger.stderr)
    );
    let printed = consent("11");
    assert!(printed.status.success(), "{printed:?}");
    let text = String::from_utf8(printed.stdout).unwrap();
    assert!(text.contains(&next.address()), "{text}");
    let signature = text.lines().last().unwrap().trim().to_string();
    advance_to(&anvil, anvil.now() + OWNER_DELAY);
    owners.exec(&dist, "applySignerWithConsent", &[&signature]);
    assert_eq!(
        anvil.read(&dist, CD, "signer", &[])[0],
        ethers_core::abi::Token::Address(chain::address(&next.address()).unwrap())
    );
}

/// The platform deployed by the dev account 0 as owner with `plan` changed by `change` (the
/// distributor born with `signer`).
fn deployment_with(
    anvil: &Anvil,
    signer: &str,
    change: impl FnOnce(&mut deploy::Plan),
) -> Deployment {
    let mut plan = deploy::Plan {
        claim_signer: Some(signer.to_string()),
        ..deploy::dev_plan(&anvil.rpc).unwrap()
    };
    change(&mut plan);
    deploy::deploy(&anvil.rpc, &Unlocked(plan.owner.clone()), &plan, &|_| {}).unwrap()
}

/// The second audit's High: the owners create credit at once (a sale price cut to one base
/// unit, raised rank bonuses, or a chain of their own accounts buying at the honest price with
/// USDT that returns to their treasury) for accounts of their own, whose commissions the HONEST
/// signer pays; claimed as fast as the daily cap comes back, they leave members no room while
/// the stretch counted as open, and the new signer applied after the delay. Now claims count as
/// open only while the shared cap leaves room for a whole claim (`maxPerClaim`, `maxPerDay`
/// and `maxPerAccountDay`, the least): the signer waits, and applies only a whole delay after
/// the room came back, in which the member claims what was credited before the announcement.
#[test]
fn credit_the_owners_create_cannot_use_up_the_members_window() {
    let anvil = Anvil::start();
    let server = ClaimSigner::new(&[0x42; 32]).unwrap();
    let evil = ClaimSigner::new(&[0x66; 32]).unwrap();
    let (d, owners) = safe_deployment(&anvil, &server.address());
    let dist = d.claim_distributor.clone();
    let claims = Claims::new(&anvil, &d);
    let accounts = anvil.accounts();
    let member = accounts[3].clone();
    let sybils = [&accounts[5], &accounts[6], &accounts[7]];
    let read = |f: &str| anvil.read_uint(&dist, CD, f, &[]);
    let lvlx = |n: u128| (n * LVLX).to_string();
    // Caps at their floors or above; one whole claim is 200,000 LVLX. The member is owed
    // 300,000, credited before anything was announced.
    owners.exec(
        &dist,
        "setCaps",
        &[&lvlx(200_000), &lvlx(600_000), &lvlx(200_000)],
    );
    let owed = 300_000 * LVLX;
    advance_to(&anvil, anvil.now() + OWNER_DELAY);
    // The credit is created and the new signer announced.
    owners.exec(&dist, "setSigner", &[&evil.address()]);
    let announced = anvil.now();
    // The owners' accounts take the room as fast as it comes back, with the honest signer's
    // vouchers: whenever the member asks, nothing is left.
    let mut credited = [0u128; 3];
    let mut t = announced;
    let mut last = announced;
    while t < announced + OWNER_DELAY + DAY {
        for (i, sybil) in sybils.iter().enumerate() {
            let mine = anvil.read_uint(&dist, CD, "accountRoom", &[sybil]);
            let take = read("room").min(mine);
            if take > 0 {
                credited[i] += take;
                last = anvil.time_of(&claims.pay(&server, sybil, credited[i]));
            }
        }
        assert_eq!(
            claims.refused(&server, &member, 200_000 * LVLX),
            "chain-claim-daily-cap"
        );
        t += 4 * 3_600;
        advance_to(&anvil, t);
    }
    // The delay has long passed: the signer may not apply, claims were never really open.
    assert_eq!(read("openSince"), 0);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorClaimsClosed"
    );
    // The owners' accounts stop. Once a whole claim fits again (8 h at 25,000 LVLX an hour)
    // the stretch starts; the member claims in it, and a whole delay after the room came back
    // the signer applies, not a second earlier.
    advance_to(&anvil, t + DAY);
    let opened = read("openSince") as u64;
    assert!(
        opened > last && opened <= last + 8 * 3_600 + 1,
        "{opened} {last}"
    );
    claims.pay(&server, &member, 200_000 * LVLX);
    advance_to(&anvil, anvil.now() + DAY / 2 + 60);
    claims.pay(&server, &member, owed);
    assert_eq!(
        claims.refused(&server, &member, owed),
        "chain-nothing-to-claim"
    );
    assert_eq!(read("openSince") as u64, opened);
    advance_to(&anvil, opened + OWNER_DELAY - 1);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorTooEarly"
    );
    advance_to(&anvil, opened + OWNER_DELAY);
    owners.exec(&dist, "applySigner", &[]);
}

/// A daily cap lowered right after the room was used leaves no room for up to a day; with the
/// shortest delay (an hour) the stretch counted as open meanwhile and the signer applied with
/// members unable to claim. Now it counts only from when a whole claim fits again.
#[test]
fn a_lowered_daily_cap_with_no_room_left_does_not_count_as_open() {
    let anvil = Anvil::start();
    let server = ClaimSigner::new(&[0x42; 32]).unwrap();
    let d = deployment_with(&anvil, &server.address(), |plan| plan.owner_delay = 3_600);
    let dist = d.claim_distributor.clone();
    let owner = d.owner.clone();
    let claims = Claims::new(&anvil, &d);
    let accounts = anvil.accounts();
    let read = |f: &str| anvil.read_uint(&dist, CD, f, &[]);
    let send = |function: &str, args: &[&str]| {
        owner::transact(&anvil.rpc, &owner, &dist, CD, function, args)
            .unwrap_or_else(|e| panic!("{function}: {e}"))
    };
    // The whole daily cap (5,000,000) is used: five claims of 1,000,000.
    for (who, cumulative) in [
        (&accounts[3], 1_000_000),
        (&accounts[3], 2_000_000),
        (&accounts[5], 1_000_000),
        (&accounts[5], 2_000_000),
        (&accounts[6], 1_000_000),
    ] {
        claims.pay(&server, who, cumulative * LVLX);
    }
    let spent_at = anvil.now();
    // Lowered to 4,500,000 (above its floor) at once, and a new signer announced.
    send(
        "setCaps",
        &[
            &deploy::DEV_CLAIM_CAP.to_string(),
            &(4_500_000 * LVLX).to_string(),
            &deploy::DEV_ACCOUNT_DAILY_CAP.to_string(),
        ],
    );
    send("setSigner", &[&accounts[9]]);
    let announced = anvil.now();
    // Two delays later there is still no room for one claim: not open, the signer waits.
    advance_to(&anvil, announced + 2 * 3_600);
    assert!(read("room") < deploy::DEV_CLAIM_CAP, "{}", read("room"));
    assert_eq!(read("openSince"), 0);
    assert_eq!(
        refused_with(&anvil, &owner, &dist, "applySigner", &[]),
        "ClaimDistributorClaimsClosed"
    );
    // The room comes back at 4,500,000 a day: 5,000,000 − 3,500,000 after 8 h; from then on
    // claims are open, and an hour later the signer applies.
    let back = spent_at + 8 * 3_600;
    advance_to(&anvil, back + 1);
    assert!(read("room") >= deploy::DEV_CLAIM_CAP);
    let opened = read("openSince") as u64;
    // (back a few seconds sooner: the claims took a few seconds, which drained a little.)
    assert!((back - 60..=back).contains(&opened), "{opened} {back}");
    advance_to(&anvil, opened + 3_600 - 1);
    assert_eq!(
        refused_with(&anvil, &owner, &dist, "applySigner", &[]),
        "ClaimDistributorTooEarly"
    );
    advance_to(&anvil, opened + 3_600);
    send("applySigner", &[]);
}

/// A distributor without the LVLX to pay a claim is not open: the signer waits. Funded again,
/// it counts from when that is seen (`checkFunds`, or the next claim); a claim leaving less than
/// one whole claim closes it again.
#[test]
fn an_empty_distributor_is_not_open() {
    let anvil = Anvil::start();
    let server = ClaimSigner::new(&[0x42; 32]).unwrap();
    let d = deployment_with(&anvil, &server.address(), |plan| plan.claims_fund = 0);
    let dist = d.claim_distributor.clone();
    let owner = d.owner.clone();
    let accounts = anvil.accounts();
    let claims = Claims::new(&anvil, &d);
    let read = |f: &str| anvil.read_uint(&dist, CD, f, &[]);
    let send = |function: &str, args: &[&str]| {
        owner::transact(&anvil.rpc, &owner, &dist, CD, function, args)
            .unwrap_or_else(|e| panic!("{function}: {e}"))
    };
    send("setSigner", &[&accounts[9]]);
    let announced = anvil.now();
    advance_to(&anvil, announced + 3 * OWNER_DELAY);
    assert_eq!(read("openSince"), 0);
    assert_eq!(
        refused_with(&anvil, &owner, &dist, "applySigner", &[]),
        "ClaimDistributorClaimsClosed"
    );
    // Funded with a plain transfer: not seen yet.
    let fund = (deploy::DEV_CLAIM_CAP + 500_000 * LVLX).to_string();
    owner::transact(
        &anvil.rpc,
        &owner,
        &d.lvlx,
        Contract::Lvlx,
        "transfer",
        &[&dist, &fund],
    )
    .unwrap();
    assert_eq!(read("openSince"), 0);
    let seen = anvil.time_of(&send("checkFunds", &[]));
    assert_eq!(read("openSince"), u128::from(seen));
    // A claim that leaves less than one whole claim (1,000,000) closes claims again.
    advance_to(&anvil, seen + OWNER_DELAY / 2);
    claims.pay(&server, &accounts[3], 600_000 * LVLX);
    assert_eq!(read("openSince"), 0);
    owner::transact(
        &anvil.rpc,
        &owner,
        &d.lvlx,
        Contract::Lvlx,
        "transfer",
        &[&dist, &fund],
    )
    .unwrap();
    advance_to(&anvil, seen + OWNER_DELAY);
    assert_eq!(
        refused_with(&anvil, &owner, &dist, "applySigner", &[]),
        "ClaimDistributorClaimsClosed"
    );
    // The next claim sees the funds: open from it.
    let paid = anvil.time_of(&claims.pay(&server, &accounts[3], 700_000 * LVLX));
    assert_eq!(read("openSince"), u128::from(paid));
    advance_to(&anvil, paid + OWNER_DELAY);
    send("applySigner", &[]);
}

/// The deployment's own mistakes are refused: no signer, a floor under one LVLX, a cap under
/// its floor.
#[test]
fn the_distributor_refuses_a_deployment_without_signer_floors_or_caps() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let owner = d.owner.clone();
    let signer = anvil.accounts()[8].clone();
    let lvlx = |n: u128| (n * LVLX).to_string();
    let good = [
        d.lvlx.clone(),
        signer.clone(),
        lvlx(1_000),
        lvlx(5_000),
        lvlx(2_000),
        lvlx(100),
        lvlx(500),
        lvlx(200),
        OWNER_DELAY.to_string(),
        owner.clone(),
    ];
    let bin = include_str!("../../../contracts/artifacts/ClaimDistributor.bin");
    let create = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let code = chain::creation(CD, bin, &args).unwrap();
        match anvil
            .rpc
            .call("eth_call", json!([{"from": owner, "data": code}, "latest"]))
        {
            Ok(_) => "created".to_string(),
            Err(RpcError::Node {
                data: Some(Value::String(data)),
                ..
            }) => CD
                .abi()
                .errors()
                .find(|e| data.starts_with(&chain::hex0x(&e.signature().as_bytes()[..4])))
                .map(|e| e.name.clone())
                .unwrap_or(data),
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!(create(&good), "created");
    let zero = "0x0000000000000000000000000000000000000000".to_string();
    let cases: [(usize, String, &str); 5] = [
        (1, zero, "ClaimDistributorZeroAddress"),
        (5, (LVLX - 1).to_string(), "ClaimDistributorFloorTooLow"),
        (7, "1".to_string(), "ClaimDistributorFloorTooLow"),
        (2, lvlx(99), "ClaimDistributorCapUnderFloor"),
        (4, lvlx(199), "ClaimDistributorCapUnderFloor"),
    ];
    for (index, value, error) in cases {
        let mut args = good.clone();
        args[index] = value;
        assert_eq!(create(&args), error, "argument {index}");
    }
}

/// A handover's time is in an event: monitors need not read `ownerAt`.
#[test]
fn a_handover_announces_its_time() {
    let anvil = Anvil::start();
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let next = anvil.accounts()[7].clone();
    let dist = d.claim_distributor.clone();
    let receipt = owner::transact(
        &anvil.rpc,
        &d.owner,
        &dist,
        CD,
        "transferOwnership",
        &[&next],
    )
    .unwrap();
    let event = CD
        .abi()
        .event("OwnerScheduled")
        .expect("an OwnerScheduled event");
    let topic = chain::hex0x(event.signature().as_bytes());
    let log = receipt["logs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["topics"][0] == topic)
        .expect("OwnerScheduled logged");
    let at = anvil.read_uint(&dist, CD, "ownerAt", &[]);
    assert_eq!(at, u128::from(anvil.time_of(&receipt) + OWNER_DELAY));
    assert_eq!(
        log["topics"][1].as_str().unwrap(),
        format!("0x{:0>64}", next.trim_start_matches("0x").to_lowercase())
    );
    assert_eq!(
        u128::from_str_radix(log["data"].as_str().unwrap().trim_start_matches("0x"), 16).unwrap(),
        at
    );
}

/// A consent binds to one announcement: the same signer announced again for the same second
/// (cancelled and announced in the same block's time) needs a new one.
#[test]
fn a_consent_binds_to_one_announcement() {
    let anvil = Anvil::start();
    let server = ClaimSigner::new(&[0x11; 32]).unwrap();
    let next = ClaimSigner::new(&[0x12; 32]).unwrap();
    let d = deployment_with(&anvil, &server.address(), |_| {});
    let (owner, dist) = (d.owner.clone(), d.claim_distributor.clone());
    let send = |function: &str, args: &[&str]| {
        owner::transact(&anvil.rpc, &owner, &dist, CD, function, args)
            .unwrap_or_else(|e| panic!("{function}: {e}"))
    };
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("lvlx.toml");
    std::fs::write(
        &config,
        format!("claim_signing_key = \"{}\"\n", "11".repeat(32)),
    )
    .unwrap();
    deploy::write_section(&config, &deploy::dev_section(&anvil.url, &d)).unwrap();
    let consent = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_lvlx"))
            .args(["claims", "consent"])
            .env("LVLX_CONFIG", &config)
            .env("LVLX_DATA_DIR", dir.path().join("data"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().last().unwrap().trim().to_string()
    };
    send("pause", &[]);
    let t = anvil.now() + 10;
    anvil.set_next_time(t);
    send("setSigner", &[&next.address()]);
    let first = consent();
    anvil.set_next_time(t);
    send("cancelSigner", &[]);
    anvil.set_next_time(t);
    send("setSigner", &[&next.address()]);
    assert_eq!(
        anvil.read_uint(&dist, CD, "signerAt", &[]),
        u128::from(t + OWNER_DELAY)
    );
    advance_to(&anvil, t + OWNER_DELAY);
    assert_eq!(
        refused_with(&anvil, &owner, &dist, "applySignerWithConsent", &[&first]),
        "ClaimDistributorBadSignature"
    );
    send("applySignerWithConsent", &[&consent()]);
}
