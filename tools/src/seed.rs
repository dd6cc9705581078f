//! `lvlx seed`: deterministic, realistic demo data for the admin screens and the benchmarks.
//! The same `--seed` gives the same rows. Four years of history up to 2026-11-01, referral
//! trees, Spanish, Portuguese and English names, some members without wallets, and a few very
//! large amounts so 18-decimal sums are exercised.

use std::collections::HashMap;

use lvlx_core::amount::Units;
use lvlx_core::ledger::balance_after;
use lvlx_core::staking::{self, Pool, Terms, DEFAULT_NFT_TERMS, DEFAULT_TIERS};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use unicode_normalization::UnicodeNormalization;

use lvlx_domain::network::settlement;
use lvlx_store::{args, ledger, Conn, Result, StoreError};

/// The seeded history ends here (UTC), so a seed is the same whenever it runs.
pub const END_MS: i64 = 1_793_491_200_000; // 2026-11-01
const DAY_MS: i64 = 86_400_000;
const YEARS_MS: i64 = 4 * 365 * DAY_MS;
const LVLX: Units = 1_000_000_000_000_000_000;
const USDT: Units = 1_000_000;
/// Seeded staking positions take ids from here up: the contracts count theirs from 1, so a demo
/// seeded beside a real chain never holds the id of a position the chain opens (the indexer
/// keeps each position once by id, and would have dropped the chain's).
pub const FIRST_SEEDED_POSITION: u64 = 1 << 40;

#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub users: u32,
    pub ico_tx: u32,
    pub nft_stakes: u32,
    pub lvlx_stakes: u32,
    pub seed: u64,
    /// A few purchases of 10^9 LVLX and more, so sums past 2^64 base units are exercised;
    /// without them the history's amounts look like a platform's (up to 10^5 LVLX each).
    pub whales: bool,
}

#[derive(Debug, Default)]
pub struct Report {
    pub users: usize,
    pub ico_tx: usize,
    pub nft_stakes: usize,
    pub lvlx_stakes: usize,
    pub skipped: bool,
}

const NAMES: [(&str, [&str; 10], [&str; 10]); 3] = [
    (
        "es",
        [
            "José", "María", "Lucía", "Javier", "Carmen", "Álvaro", "Sofía", "Diego", "Elena",
            "Andrés",
        ],
        [
            "García",
            "Martínez",
            "López",
            "Sánchez",
            "Pérez",
            "Gómez",
            "Fernández",
            "Ruiz",
            "Díaz",
            "Núñez",
        ],
    ),
    (
        "pt",
        [
            "João",
            "Ana",
            "Luís",
            "Beatriz",
            "Gonçalo",
            "Inês",
            "Tomás",
            "Mariana",
            "Conceição",
            "Vitória",
        ],
        [
            "Silva",
            "Santos",
            "Oliveira",
            "Souza",
            "Pereira",
            "Costa",
            "Rodrigues",
            "Almeida",
            "Gonçalves",
            "Araújo",
        ],
    ),
    (
        "en",
        [
            "James", "Olivia", "Liam", "Emma", "Noah", "Ava", "William", "Mia", "Ethan", "Grace",
        ],
        [
            "Smith", "Johnson", "Brown", "Taylor", "Wilson", "Davies", "Evans", "Walker", "Wright",
            "Hughes",
        ],
    ),
];
const DOMAINS: [&str; 3] = ["example.com", "example.org", "example.net"];

/// "Conceição" → "conceicao": the email local part is lowercase ASCII
/// (docs/product/accounts.md#validation).
fn ascii(name: &str) -> String {
    name.nfd()
        .filter(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_lowercase()
}

fn hex(rng: &mut StdRng, bytes: usize) -> String {
    (0..bytes)
        .map(|_| format!("{:02x}", rng.gen::<u8>()))
        .collect()
}

/// A random amount with all 18 decimals used: 1 to 10^digits whole tokens.
fn lvlx(rng: &mut StdRng, max_digits: u32) -> Units {
    let digits = rng.gen_range(0..=max_digits);
    let whole = rng.gen_range(1..=10u128.pow(digits));
    whole * LVLX + rng.gen_range(0..LVLX)
}

struct Member {
    id: i64,
    created_at: i64,
    has_wallet: bool,
    wallet: Option<String>,
    balance: Units,
}

/// Writes the plan's rows in one transaction. Does nothing if the ledger already has rows.
pub fn run(c: Conn, plan: &Plan, product: &str, password_hash: &str) -> Result<Report> {
    if ledger::count(c)? > 0 {
        return Ok(Report {
            skipped: true,
            ..Report::default()
        });
    }
    let mut rng = StdRng::seed_from_u64(plan.seed);
    c.transaction(|tx| write(tx, &mut rng, plan, product, password_hash))
}

fn write(
    c: Conn,
    rng: &mut StdRng,
    plan: &Plan,
    product: &str,
    password_hash: &str,
) -> Result<Report> {
    let mut members = write_members(c, rng, plan, password_hash)?;
    let (entries, purchases) = write_ledger(c, rng, plan, product, &mut members)?;
    write_network(c, rng, product, &members, purchases)?;
    let (nft_stakes, lvlx_stakes) = write_stakes(c, rng, plan, &members)?;
    lvlx_store::copy::continue_numbering(c)?;
    Ok(Report {
        users: members.len(),
        ico_tx: entries,
        nft_stakes,
        lvlx_stakes,
        skipped: false,
    })
}

/// Seeded member number `i` (id `id`): a language, a first name, last names as that language
/// writes them, and an email made of them (the draws in the order the seed has always made).
fn person(rng: &mut StdRng, i: usize, id: i64) -> (&'static str, &'static str, String, String) {
    let (language, firsts, lasts) = NAMES[rng.gen_range(0..NAMES.len())];
    let first = firsts[rng.gen_range(0..10)];
    let (last1, last2) = (lasts[rng.gen_range(0..10)], lasts[rng.gen_range(0..10)]);
    let lastnames = if language == "en" {
        last1.to_string()
    } else {
        format!("{last1} {last2}")
    };
    let email = format!(
        "{}.{}{}@{}",
        ascii(first),
        ascii(last1),
        id,
        DOMAINS[i % DOMAINS.len()]
    );
    (language, first, lastnames, email)
}

/// Members, in registration order, in referral trees under the demo member when there is one.
fn write_members(
    c: Conn,
    rng: &mut StdRng,
    plan: &Plan,
    password_hash: &str,
) -> Result<Vec<Member>> {
    let first_id: i64 =
        c.query_one("SELECT COALESCE(MAX(id), 0) + 1 FROM users", args![], |r| {
            r.get(0)
        })?;

    // The demo member (when `lvlx demo` created it) sponsors the roots of the seeded trees, so
    // the demo's own network is the seeded one.
    let demo_sponsor: Option<i64> = c.query_opt(
        "SELECT id FROM users WHERE email = ?1",
        args![crate::demo::DEMO_USER.0],
        |r| r.get(0),
    )?;

    let mut times: Vec<i64> = (0..plan.users)
        .map(|_| END_MS - rng.gen_range(0..YEARS_MS))
        .collect();
    times.sort_unstable();
    let mut members: Vec<Member> = Vec::with_capacity(times.len());
    {
        let insert =
            "INSERT INTO users (id, email, names, lastnames, phone, role, language, password_hash,
             referral_code, referrer_id, wallet, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, '1', ?6, ?7, ?8, ?9, ?10, ?11)";
        for (i, &created_at) in times.iter().enumerate() {
            let id = first_id + i as i64;
            let (language, first, lastnames, email) = person(rng, i, id);
            // Referral trees: most members were brought by an earlier one.
            let referrer = if i > 0 && rng.gen_bool(0.9) {
                Some(first_id + rng.gen_range(0..i) as i64)
            } else {
                demo_sponsor
            };
            let has_wallet = rng.gen_bool(0.85);
            let wallet = has_wallet.then(|| format!("0x{}", hex(rng, 20)));
            let phone = format!("+34 6{:08}", rng.gen_range(0..100_000_000));
            c.execute(
                insert,
                args![
                    id,
                    email,
                    first,
                    lastnames,
                    phone,
                    language,
                    password_hash,
                    hex(rng, 16),
                    referrer,
                    &wallet,
                    created_at
                ],
            )?;
            members.push(Member {
                id,
                created_at,
                has_wallet,
                wallet,
                balance: 0,
            });
        }
    }
    Ok(members)
}

/// The ledger, in time order, with balances and the daily rollup; answers how many entries and
/// the ids of the purchases.
fn write_ledger(
    c: Conn,
    rng: &mut StdRng,
    plan: &Plan,
    product: &str,
    members: &mut [Member],
) -> Result<(usize, Vec<(i64, i64)>)> {
    let mut entries: Vec<(i64, usize, bool, Units)> = Vec::with_capacity(plan.ico_tx as usize);
    if !members.is_empty() {
        for i in 0..plan.ico_tx {
            // Earlier members buy more often.
            let m = ((rng.gen::<f64>().powi(2)) * members.len() as f64) as usize;
            let m = m.min(members.len() - 1);
            let at = rng.gen_range(members[m].created_at..=END_MS);
            let purchase = !rng.gen_bool(0.08);
            let amount = if !purchase {
                rng.gen_range(1..=20_000) * USDT + rng.gen_range(0..USDT)
            } else if plan.whales && (i == 7 || i % 250_000 == 17) {
                rng.gen_range(1_000_000_000..=9_000_000_000) * LVLX + rng.gen_range(0..LVLX)
            } else {
                lvlx(rng, 5)
            };
            entries.push((at, m, purchase, amount));
        }
    }
    entries.sort_by_key(|e| e.0);
    let mut days: HashMap<(i64, bool), (u64, Units)> = HashMap::new();
    // Each purchase's id and time.
    let mut purchases: Vec<(i64, i64)> = Vec::new();
    {
        let insert = "INSERT INTO ico_transactions (user_id, wallet, created_at, token, amount, tx_hash, log_index)
             VALUES (?1, (SELECT wallet FROM users WHERE id = ?1), ?2, ?3, ?4, ?5, 0) RETURNING id";
        for &(at, m, purchase, amount) in &entries {
            let token = if purchase { product } else { "USDT" };
            let member = &mut members[m];
            member.balance = balance_after(member.balance, product, token, amount)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let id: i64 = c.query_one(
                insert,
                args![
                    member.id,
                    at,
                    token,
                    amount.to_string(),
                    format!("0x{}", hex(rng, 32))
                ],
                |r| r.get(0),
            )?;
            if purchase {
                purchases.push((id, at));
            }
            let day = days.entry((at.div_euclid(DAY_MS), purchase)).or_default();
            day.0 += 1;
            day.1 += amount;
        }
    }
    for ((day, purchase), (count, amount)) in days {
        ledger::add_to_day(
            c,
            day,
            if purchase { product } else { "USDT" },
            count,
            amount,
        )?;
    }
    {
        let update = "UPDATE users SET lvlx_balance = ?1 WHERE id = ?2";
        for m in members.iter().filter(|m| m.balance > 0) {
            c.execute(update, args![m.balance.to_string(), m.id])?;
        }
    }
    Ok((entries.len(), purchases))
}

fn write_network(
    c: Conn,
    rng: &mut StdRng,
    product: &str,
    members: &[Member],
    purchases: Vec<(i64, i64)>,
) -> Result<()> {
    // The network: a third of the members with a wallet hold an activation node from their
    // registration on; every purchase is settled as the indexer settles it (commissions, volume,
    // ranks), with the default commission levels and the stored ranks.
    {
        let insert = "INSERT INTO activation_nodes (wallet, user_id, usdt_paid, block, log_index, created_at, tx_hash)
             VALUES (?1, ?2, ?3, 0, 0, ?4, ?5)";
        let mark = "UPDATE users SET activation_node = 1 WHERE id = ?1";
        for m in members {
            if let (Some(wallet), true) = (&m.wallet, rng.gen_bool(0.33)) {
                let price = lvlx_core::network::DEFAULT_NODE_PRICE.to_string();
                c.execute(
                    insert,
                    args![
                        wallet,
                        m.id,
                        price,
                        m.created_at,
                        format!("0x{}", hex(rng, 32))
                    ],
                )?;
                c.execute(mark, args![m.id])?;
            }
        }
    }
    let levels = lvlx_core::network::DEFAULT_LEVELS_BPS;
    // Settled at its own time: a rank reached, and its bonus, carry the day of the purchase
    // that reached it (not all the seed's end).
    for (id, at) in purchases {
        settlement::settle_purchase(c, id, product, &levels, at)?;
    }
    Ok(())
}

/// Stakes by members with a wallet; answers how many of each pool.
fn write_stakes(
    c: Conn,
    rng: &mut StdRng,
    plan: &Plan,
    members: &[Member],
) -> Result<(usize, usize)> {
    let stakers: Vec<usize> = (0..members.len())
        .filter(|&i| members[i].has_wallet)
        .collect();
    let (mut nft_count, mut lvlx_count) = (0, 0);
    if !stakers.is_empty() {
        // The positions the staking contracts' events would have recorded, at benchmark scale
        // (no chain involved: `lvlx seed` says so in its help). Rewards follow the core's
        // default terms; interest withdrawn stays within what had accrued by the seed's end.
        let insert = "INSERT INTO stake_positions
               (pool, position, user_id, wallet, kind, amount, reward, start_date, release_date,
                withdrawn, tx_hash, log_index)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0)";
        let position = |pool: Pool,
                        n: u64,
                        m: &Member,
                        terms: &Terms,
                        amount: Units,
                        rng: &mut StdRng|
         -> Result<()> {
            let start = rng.gen_range(m.created_at..=END_MS);
            let release = start + terms.lock_seconds as i64 * 1000;
            let reward = staking::reward(pool, terms, amount).unwrap_or(0);
            let accrued = staking::accrued(
                reward,
                start as u64 / 1000,
                release as u64 / 1000,
                END_MS as u64 / 1000,
            );
            let withdrawn = accrued / rng.gen_range(1..=10);
            c.execute(
                insert,
                args![
                    pool.name(),
                    (FIRST_SEEDED_POSITION + n) as i64,
                    m.id,
                    &m.wallet,
                    terms.kind,
                    amount.to_string(),
                    reward.to_string(),
                    start,
                    release,
                    withdrawn.to_string(),
                    format!("seed:{}:{n}", pool.name()),
                ],
            )?;
            Ok(())
        };
        for n in 1..=plan.nft_stakes as u64 {
            let m = &members[stakers[rng.gen_range(0..stakers.len())]];
            // Lower ids are the common NFTs.
            let nft = (1 + ((rng.gen::<f64>().powi(2)) * 11.0) as usize).min(11);
            let amount = rng.gen_range(1..=5);
            position(Pool::Nft, n, m, &DEFAULT_NFT_TERMS[nft - 1], amount, rng)?;
            nft_count += 1;
        }
        for n in 1..=plan.lvlx_stakes as u64 {
            let m = &members[stakers[rng.gen_range(0..stakers.len())]];
            let amount = lvlx(rng, 5);
            let tier = &DEFAULT_TIERS[rng.gen_range(0..DEFAULT_TIERS.len())];
            position(Pool::Lvlx, n, m, tier, amount, rng)?;
            lvlx_count += 1;
        }
    }
    Ok((nft_count, lvlx_count))
}
