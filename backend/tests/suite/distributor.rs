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
    let max = u128::MAX.to_string();

    // 1. A new signer and caps raised to the maximum: both announced, neither applies early, and
    // the new signer's voucher for everything is refused.
    owners.exec(&dist, "setSigner", &[&evil.address()]);
    owners.exec(&dist, "setCaps", &[&max, &max, &max]);
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
    owners.exec(&dist, "setCaps", &[&max, &max, &max]);
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
    let lowered = u128::MAX - 1;
    let restarted =
        anvil.time_of(&owners.exec(&dist, "setCaps", &[&lowered.to_string(), &max, &max]));
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
    // A whole delay of open claims later the new signer applies; only then do its vouchers pay,
    // and what they can take is what members were not owed.
    advance_to(&anvil, restarted + OWNER_DELAY);
    owners.exec(&dist, "applySigner", &[]);
    claims.pay(&evil, &thief, balance - owed);
    assert_eq!(lvlx_of(&anvil, &d, &dist), 0);
    assert_eq!(lvlx_of(&anvil, &d, &member) - before, owed);
}

/// What the distributor's owner can do, drawn at random, never lets a new signer apply unless,
/// for the whole delay before it applies (and after it was announced), claims were unpaused,
/// every cap at least its floor and none lowered; and whenever that held (its time come and
/// not lapsed), the signer can apply. `LVLX_DISTRIBUTOR_STEPS` (default 300) and
/// `LVLX_DISTRIBUTOR_SEED`.
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
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let owner = d.owner.clone();
    let dist = d.claim_distributor.clone();
    deploy::register_claim_signer(&anvil.rpc, &owner, &dist, &anvil.accounts()[8]).unwrap();
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
    // After every step: (time, open, caps). The state holds from that time to the next entry.
    let mut history: Vec<(u64, bool, [u128; 3])> = Vec::new();
    let mut announced: Option<u64> = None;
    let snapshot = |history: &mut Vec<(u64, bool, [u128; 3])>| {
        let caps = caps_now();
        let paused = anvil.read(&dist, CD, "paused", &[])[0] == ethers_core::abi::Token::Bool(true);
        let open = !paused && caps.iter().zip(floors).all(|(c, f)| *c >= f);
        history.push((anvil.now(), open, caps));
    };
    snapshot(&mut history);
    let signers: Vec<String> = anvil.accounts()[5..8].to_vec();
    let (mut applied, mut refused_apply, mut allowed_steps) = (0, 0, 0);
    for step in 0..steps {
        let now = anvil.now();
        // The property, read from the history: whether the signer may apply now.
        let allowed = announced.is_some_and(|a| {
            let at = a + OWNER_DELAY;
            let from = now.saturating_sub(OWNER_DELAY);
            // The states in force at some time in [from, now] (each holds until the next).
            let stretch: Vec<&(u64, bool, [u128; 3])> = history
                .iter()
                .enumerate()
                .filter(|(i, h)| h.0 <= now && history.get(i + 1).is_none_or(|n| n.0 > from))
                .map(|(_, h)| h)
                .collect();
            now >= at
                && now < at + GRACE
                && stretch.iter().all(|h| h.1)
                && stretch.windows(2).all(|w| {
                    w[0].2
                        .iter()
                        .zip(w[1].2)
                        .all(|(before, after)| after >= *before)
                })
        });
        let can = would_succeed(&anvil, &owner, &dist, "applySigner", &[]);
        allowed_steps += usize::from(allowed);
        assert_eq!(
            can, allowed,
            "step {step} (seed {seed}): applySigner {can}, the rule says {allowed}; announced {announced:?}, now {now}, history {:?}",
            &history[history.len().saturating_sub(6)..]
        );
        let f = |x: u128| x.to_string();
        // New caps: mostly the same or higher (at least the floor), now and then lower, perhaps
        // under the floor.
        let cap = |rng: &mut rand::rngs::StdRng, now: u128, floor: u128| match rng.gen_range(0..12)
        {
            0 => floor - 1,
            1 => floor.max(now / 2),
            2..=7 => now.max(floor),
            _ => now.max(floor) * rng.gen_range(2..4),
        };
        // Weights: a signer announced or applied, pausing and resuming, caps set (lowered or
        // raised) and applied, cancelling, time passing.
        let action = match rng.gen_range(0..20) {
            _ if can && rng.gen_bool(0.5) => 1,
            0..=1 => 0,
            2..=3 => 1,
            4 if rng.gen_bool(0.5) => 2,
            5..=7 => 3,
            8..=10 => 4,
            11 => 5,
            12..=13 => 6,
            14 if rng.gen_bool(0.3) => 7,
            _ => 8,
        };
        let sent = match action {
            // A pending signer is replaced now and then; mostly time passes instead.
            0 if announced.is_some() && rng.gen_range(0..4) != 0 => {
                advance_to(&anvil, anvil.now() + rng.gen_range(3_600..OWNER_DELAY));
                true
            }
            0 => {
                let who = &signers[rng.gen_range(0..signers.len())];
                let ok = owner::transact(&anvil.rpc, &owner, &dist, CD, "setSigner", &[who]);
                if ok.is_ok() {
                    announced = Some(anvil.now());
                }
                ok.is_ok()
            }
            1 if can => {
                owner::transact(&anvil.rpc, &owner, &dist, CD, "applySigner", &[]).unwrap();
                announced = None;
                applied += 1;
                true
            }
            1 => {
                refused_apply += 1;
                false
            }
            2 => owner::transact(&anvil.rpc, &owner, &dist, CD, "pause", &[]).is_ok(),
            3 => owner::transact(&anvil.rpc, &owner, &dist, CD, "unpause", &[]).is_ok(),
            4 => owner::transact(&anvil.rpc, &owner, &dist, CD, "applyUnpause", &[]).is_ok(),
            5 => {
                let now = caps_now();
                let caps = [
                    cap(&mut rng, now[0], floors[0]),
                    cap(&mut rng, now[1], floors[1]),
                    cap(&mut rng, now[2], floors[2]),
                ];
                owner::transact(
                    &anvil.rpc,
                    &owner,
                    &dist,
                    CD,
                    "setCaps",
                    &[&f(caps[0]), &f(caps[1]), &f(caps[2])],
                )
                .is_ok()
            }
            6 => owner::transact(&anvil.rpc, &owner, &dist, CD, "applyCaps", &[]).is_ok(),
            7 => {
                let ok = owner::transact(&anvil.rpc, &owner, &dist, CD, "cancelSigner", &[]);
                if ok.is_ok() {
                    announced = None;
                }
                ok.is_ok()
            }
            _ => {
                // Time passes: minutes to days, now and then past the grace period.
                let seconds = match rng.gen_range(0..10) {
                    0 => GRACE + rng.gen_range(0..DAY),
                    1..=4 => rng.gen_range(60..OWNER_DELAY),
                    _ => rng.gen_range(OWNER_DELAY / 2..OWNER_DELAY * 2),
                };
                advance_to(&anvil, anvil.now() + seconds);
                true
            }
        };
        let _ = sent;
        snapshot(&mut history);
    }
    let open_steps = history.iter().filter(|h| h.1).count();
    println!(
        "distributor rule: {steps} steps ({open_steps} open, {allowed_steps} where the signer could apply), the signer applied {applied} times, refused {refused_apply} (seed {seed})"
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
    deploy::register_claim_signer(&anvil.rpc, &owner, &dist, &accounts[8]).unwrap();
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
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let accounts = anvil.accounts();
    let signer = ClaimSigner::new(&[0x44; 32]).unwrap();
    let dist = d.claim_distributor.clone();
    deploy::register_claim_signer(&anvil.rpc, &d.owner, &dist, &signer.address()).unwrap();
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
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let chain = deploy::dev_section(&anvil.url, &d);
    let w = common::world_with(|c| c.chain = Some(chain)).await;
    let dist = d.claim_distributor.clone();
    deploy::register_claim_signer(&anvil.rpc, &d.owner, &dist, &w.app.claim_signer.address())
        .unwrap();
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
    let d = deploy::deploy_dev(&anvil.rpc).unwrap();
    let accounts = anvil.accounts();
    let dist = d.claim_distributor.clone();
    deploy::register_claim_signer(&anvil.rpc, &d.owner, &dist, &accounts[8]).unwrap();
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
    let consent = |by: &ClaimSigner, at: u64| {
        by.sign_rotation(&lvlx_core::chain::Rotation {
            chain_id: 137,
            contract: chain::address(&dist).unwrap(),
            new_signer: chain::address(&next.address()).unwrap(),
            at,
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
    // Before its time, consent or not.
    assert_eq!(with(&consent(&stolen, at)), "ClaimDistributorTooEarly");
    advance_to(&anvil, at);
    assert_eq!(
        owners.refused(&dist, "applySigner"),
        "ClaimDistributorClaimsClosed"
    );
    for signature in [
        consent(&stranger, at),
        consent(&next, at),
        consent(&stolen, earlier),
        consent(&stolen, at + 1),
    ] {
        assert_eq!(with(&signature), "ClaimDistributorBadSignature");
    }
    let receipt = owners.exec(&dist, "applySignerWithConsent", &[&consent(&stolen, at)]);
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
