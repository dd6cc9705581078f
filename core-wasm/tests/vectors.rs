//! Runs the shared vectors in `testdata/` against the native core. `web/test/core.test.mjs`
//! runs the same files against the built WebAssembly package, so both targets agree.
//!
//! Each file maps an exported function name (as JavaScript sees it) to cases of
//! `{args, expect}`; `expect: {"error": true}` means the call must fail.

use lvlx_core::{amount, captcha, date, display, guard, network, session, staking, validation};
use serde_json::{json, Value};

type Outcome = Result<Value, String>;

fn s(v: &Value) -> &str {
    v.as_str().expect("string argument")
}
fn opt(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str)
}
fn int(v: &Value) -> Result<i64, String> {
    v.as_i64().ok_or_else(|| format!("not a whole number: {v}"))
}
fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Calls the core function that the export `name` binds to.
fn call(name: &str, a: &[Value]) -> Outcome {
    let key = |r: Result<(), validation::Invalid>| json!(r.err().map(|e| e.key()));
    Ok(match name {
        "validateField" => {
            let field = validation::Field::parse(s(&a[0])).ok_or("unknown field")?;
            key(validation::validate(field, s(&a[1]), opt(a.get(2))))
        }
        "validateAmount" => key(validation::validate_amount(
            s(&a[0]),
            int(&a[1])? as u32,
            opt(a.get(2)),
            opt(a.get(3)),
            s(&a[4]),
        )),
        "isReferralCode" => json!(validation::is_referral_code(s(&a[0]))),
        "lvlxToUsdt" => json!(amount::lvlx_to_usdt(
            amount::parse_base(s(&a[0])).map_err(err)?
        )),
        "formatUnits" => {
            let units = amount::parse_base(s(&a[0])).map_err(err)?;
            json!(amount::format_units(units, int(&a[1])? as u32).map_err(err)?)
        }
        "formatFixed" => {
            let units = amount::parse_base(s(&a[0])).map_err(err)?;
            let (decimals, digits) = (int(&a[1])? as u32, int(&a[2])? as u32);
            json!(amount::format_fixed(units, decimals, digits).map_err(err)?)
        }
        "localizeNumber" => json!(amount::localize(s(&a[0]), s(&a[1]))),
        "formatTokenIn" => {
            let units = amount::parse_base(s(&a[0])).map_err(err)?;
            json!(amount::format_token_in(units, s(&a[1]), s(&a[2])))
        }
        "formatRewardIn" => {
            let units = amount::parse_base(s(&a[0])).map_err(err)?;
            json!(amount::format_reward_in(units, s(&a[1])))
        }
        "parseUnits" => {
            json!(amount::parse_units(s(&a[0]), int(&a[1])? as u32)
                .map_err(err)?
                .to_string())
        }
        "parseAmount" => json!(amount::parse_typed(s(&a[0]), int(&a[1])? as u32, s(&a[2]))
            .map_err(err)?
            .to_string()),
        "editableNumber" => json!(amount::editable(s(&a[0]), s(&a[1]))),
        "sumUnits" => {
            let list = a[0].as_array().expect("list");
            let parsed: Vec<_> = list
                .iter()
                .map(|v| amount::parse_base(s(v)))
                .collect::<Result<_, _>>()
                .map_err(err)?;
            json!(amount::sum(parsed).ok_or("overflow")?.to_string())
        }
        "normalizeTimestamp" => json!(date::normalize_timestamp(int(&a[0])?)),
        "calendarDate" => {
            json!(date::calendar_date(int(&a[0])?, int(&a[1])? as i32).ok_or("range")?)
        }
        "dayInRange" => {
            json!(date::day_in_range(s(&a[0]), opt(a.get(1)), opt(a.get(2))).ok_or("bad date")?)
        }
        "rangeError" => json!(date::range_error(opt(a.first()), opt(a.get(1)))),
        "formatLocalDay" => {
            json!(date::format_local_day(s(&a[0]), s(&a[1])).ok_or("bad date")?)
        }
        "parseLocalDay" => json!(date::parse_local_day(s(&a[0]), s(&a[1])).ok_or("bad date")?),
        "nextWeekly" => {
            json!(date::next_weekly(int(&a[0])?, int(&a[1])? as u32).ok_or("bad weekday")?)
        }
        "shortWallet" => json!(display::short_wallet(s(&a[0]))),
        "shortWalletMessage" => json!(display::short_wallet_message(s(&a[0]))),
        "truncateEmail" => json!(display::truncate_email(s(&a[0]))),
        "decodeSession" => json!(session::decode(s(&a[0]))),
        "guard" => {
            let kind: guard::Kind = serde_json::from_value(a[0].clone()).map_err(err)?;
            let stored: guard::Stored = serde_json::from_value(a[1].clone()).map_err(err)?;
            json!(guard::decide(kind, &stored, int(&a[2])?))
        }
        "solveCaptcha" => json!(captcha::solve(s(&a[0]), int(&a[1])? as u32).ok_or("too hard")?),
        "commissions" => {
            let levels: Vec<u32> = serde_json::from_value(a[1].clone()).map_err(err)?;
            let upline: Vec<bool> = serde_json::from_value(a[2].clone()).map_err(err)?;
            json!(network::commissions(
                amount::parse_base(s(&a[0])).map_err(err)?,
                &levels,
                &upline
            ))
        }
        "rankStanding" => {
            let ranks: Vec<network::Rank> = serde_json::from_value(a[1].clone()).map_err(err)?;
            let achieved: Vec<u32> = serde_json::from_value(a[2].clone()).map_err(err)?;
            json!(network::standing(
                amount::parse_base(s(&a[0])).map_err(err)?,
                &ranks,
                &achieved
            ))
        }
        "stakingQuote" => {
            let pool = staking::Pool::parse(s(&a[0])).ok_or("unknown pool")?;
            let t = &a[1];
            let terms = staking::Terms {
                kind: int(&t["kind"])? as u32,
                usdt_value: amount::parse_base(s(&t["usdtValue"])).map_err(err)?,
                rate_bps: int(&t["rateBps"])? as u32,
                lock_seconds: int(&t["lockSeconds"])? as u64,
            };
            let units = |v: &Value| amount::parse_base(s(v)).map_err(err);
            match staking::quote(
                pool,
                &terms,
                units(&a[2])?,
                units(&a[3])?,
                int(&a[4])? as u64,
            ) {
                Ok(q) => json!(q),
                Err(e) => json!({ "error": e.key() }),
            }
        }
        "stakingStanding" => {
            let p = &a[0];
            let units = |v: &Value| amount::parse_base(s(v)).map_err(err);
            let position = staking::Position {
                start: (int(&p["startDate"])? / 1000) as u64,
                release: (int(&p["withdrawDate"])? / 1000) as u64,
                reward: units(&p["reward"])?,
                withdrawn: units(&p["withdrawn"])?,
            };
            json!(position.standing(int(&a[1])? as u64))
        }
        other => panic!("no binding for {other}"),
    })
}

fn run(file: &str) {
    let path = format!("{}/testdata/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("vector file");
    let suites: serde_json::Map<String, Value> = serde_json::from_str(&text).expect("JSON");
    let mut failures = Vec::new();
    let mut count = 0;
    for (name, cases) in &suites {
        for case in cases.as_array().expect("cases") {
            count += 1;
            let args = case["args"].as_array().expect("args");
            let expect = &case["expect"];
            let wants_error = expect.get("error") == Some(&Value::Bool(true));
            match call(name, args) {
                Ok(got) if !wants_error && &got == expect => {}
                Err(_) if wants_error => {}
                got => failures.push(format!("{name}{args:?}: expected {expect}, got {got:?}")),
            }
        }
    }
    assert!(count > 0, "{file} has no cases");
    assert!(failures.is_empty(), "{file}:\n{}", failures.join("\n"));
}

#[test]
fn validation_vectors() {
    run("validation.json");
}

#[test]
fn amount_vectors() {
    run("amounts.json");
}

#[test]
fn typed_amount_vectors() {
    run("typed.json");
}

#[test]
fn date_vectors() {
    run("dates.json");
}

#[test]
fn display_vectors() {
    run("display.json");
}

#[test]
fn session_and_guard_vectors() {
    run("session.json");
}

/// Staking rewards, quotes and accrual against the Python-int reference that wrote the file
/// (the contracts are checked against the same core on anvil: backend/tests/suite/staking.rs).
#[test]
fn staking_vectors() {
    run("staking.json");
}

/// Commissions and rank standing against the Python-int reference that wrote the file.
#[test]
fn network_vectors() {
    run("network.json");
}

/// Whole random referral trees (network.py): walking each purchase's upline through the
/// sponsors and paying what the core's `commissions` says gives every member exactly the
/// reference's earnings.
#[test]
fn network_trees_pay_exactly_the_reference() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/network-tree.json");
    let trees: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(trees.len() >= 6);
    for tree in trees {
        let parents: Vec<Option<usize>> = serde_json::from_value(tree["parents"].clone()).unwrap();
        let nodes: Vec<bool> = serde_json::from_value(tree["nodes"].clone()).unwrap();
        let levels: Vec<u32> = serde_json::from_value(tree["levels"].clone()).unwrap();
        let mut earned = vec![0u128; parents.len()];
        for p in tree["purchases"].as_array().unwrap() {
            let buyer = p[0].as_u64().unwrap() as usize;
            let amount = amount::parse_base(s(&p[1])).unwrap();
            let mut upline = Vec::new();
            let mut at = parents[buyer];
            while let (Some(member), true) = (at, upline.len() < levels.len()) {
                upline.push(member);
                at = parents[member];
            }
            let active: Vec<bool> = upline.iter().map(|&m| nodes[m]).collect();
            for c in network::commissions(amount, &levels, &active) {
                earned[upline[c.upline]] += c.amount;
            }
        }
        let want: Vec<String> = serde_json::from_value(tree["earned"].clone()).unwrap();
        assert_eq!(earned.iter().map(u128::to_string).collect::<Vec<_>>(), want);
    }
}

#[test]
fn captcha_vectors() {
    run("captcha.json");
}
