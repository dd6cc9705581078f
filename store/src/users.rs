//! The users table: accounts, their wallet and balances, and the admin users table's rows.

use super::Row;
use crate::args;
use lvlx_core::admin::users::{self as table, Summary, SummaryBuilder};
use lvlx_core::amount::Units;
use lvlx_core::books::Kept;
use lvlx_core::ADMIN_ROLE;

use super::{Conn, Result, StoreError};
use crate::user::{Affiliate, NewUser, User, UserId};

/// Qualified, so that a join (the session lookup) can read them too.
const COLUMNS: &str = "users.id, users.email, users.names, users.lastnames, users.role, users.status, users.language, users.password_hash, users.referral_code, users.wallet, users.activation_node, users.has_avatar";

fn from_row(r: &Row) -> Result<User> {
    Ok(User {
        id: UserId(r.get(0)?),
        email: r.get(1)?,
        names: r.get(2)?,
        lastnames: r.get(3)?,
        role: r.get(4)?,
        status: r.get(5)?,
        language: r.get(6)?,
        password_hash: r.get(7)?,
        referral_code: r.get(8)?,
        wallet: r.get(9)?,
        activation_node: r.get(10)?,
        has_avatar: r.get(11)?,
    })
}

pub fn by_email(c: Conn, email: &str) -> Result<Option<User>> {
    c.query_opt(
        &format!("SELECT {COLUMNS} FROM users WHERE email = ?1"),
        args![email],
        from_row,
    )
}

pub fn by_id(c: Conn, id: UserId) -> Result<Option<User>> {
    // Every authenticated request asks this: the statement is kept prepared per connection.
    c.query_opt(
        &format!("SELECT {COLUMNS} FROM users WHERE id = ?1"),
        args![id.0],
        from_row,
    )
}

/// The account of session `session` when that session is `user`'s and live at `now`, with the
/// session's end: what every authenticated request asks, in one query (on PostgreSQL each
/// query is a round trip; the session and the account apart were two).
pub fn in_live_session(
    c: Conn,
    session: &str,
    user: UserId,
    now: i64,
) -> Result<Option<(User, i64)>> {
    c.query_opt(
        &format!(
            "SELECT {COLUMNS}, s.expires_at FROM sessions s JOIN users ON users.id = s.user_id
             WHERE s.id = ?1 AND s.user_id = ?2 AND s.revoked_at IS NULL AND s.expires_at > ?3"
        ),
        args![session, user.0, now],
        |r| Ok((from_row(r)?, r.get(12)?)),
    )
}

/// Sets user `user`'s status (`active` or `blocked`); the status before, None when there is no
/// such account.
pub fn set_status(c: Conn, user: UserId, status: &str) -> Result<Option<String>> {
    let before = c.query_opt(
        "SELECT status FROM users WHERE id = ?1",
        args![user.0],
        |r| r.get::<String>(0),
    )?;
    if before.is_some() {
        c.execute(
            "UPDATE users SET status = ?2 WHERE id = ?1",
            args![user.0, status],
        )?;
    }
    Ok(before)
}

pub fn id_by_referral_code(c: Conn, code: &str) -> Result<Option<UserId>> {
    Ok(c.query_opt(
        "SELECT id FROM users WHERE lower(referral_code) = lower(?1)",
        args![code],
        |r| r.get(0),
    )?
    .map(UserId))
}

/// The given names and last names of the account whose referral code is `code`.
pub fn names_by_referral_code(c: Conn, code: &str) -> Result<Option<(String, String)>> {
    c.query_opt(
        "SELECT names, lastnames FROM users WHERE lower(referral_code) = lower(?1)",
        args![code],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Inserts a user with the given referral code; `None` when the email already has an account.
pub fn insert(c: Conn, new: &NewUser, referral_code: &str, now_ms: i64) -> Result<Option<UserId>> {
    let result = c.query_one(
        "INSERT INTO users (email, names, lastnames, phone, role, language, password_hash, referral_code, referrer_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id",
        args![&new.email, &new.names, &new.lastnames, &new.phone, &new.role, &new.language, &new.password_hash, referral_code, new.referrer.map(|r| r.0), now_ms],
        |r| r.get(0),
    );
    match result {
        Ok(id) => Ok(Some(UserId(id))),
        Err(e) if e.is_duplicate() => Ok(None),
        Err(e) => Err(e),
    }
}

pub fn set_password(c: Conn, id: UserId, hash: &str) -> Result<()> {
    c.execute(
        "UPDATE users SET password_hash = ?1 WHERE id = ?2",
        args![hash, id.0],
    )?;
    Ok(())
}

/// The members credited rank `rank` keep its name: `old` becomes `new` where they store it.
pub fn rename_rank(c: Conn, rank: u32, old: &str, new: &str) -> Result<()> {
    c.execute(
        "UPDATE users SET rank = ?2 WHERE rank = ?1 AND id IN (SELECT user_id FROM rank_bonuses WHERE rank_id = ?3)",
        args![old, new, rank],
    )?;
    Ok(())
}

/// The account's language (mails, notices, the app after signing in) becomes `language`.
pub fn set_language(c: Conn, id: UserId, language: &str) -> Result<()> {
    c.execute(
        "UPDATE users SET language = ?2 WHERE id = ?1",
        args![id.0, language],
    )?;
    Ok(())
}

pub fn set_has_avatar(c: Conn, id: UserId) -> Result<()> {
    c.execute("UPDATE users SET has_avatar = 1 WHERE id = ?1", args![id.0])?;
    Ok(())
}

/// The members `sponsor` brought in, in the order they joined.
pub fn affiliates(c: Conn, sponsor: UserId) -> Result<Vec<Affiliate>> {
    c.query_all(
        "SELECT names, lastnames, created_at FROM users WHERE referrer_id = ?1 ORDER BY created_at",
        args![sponsor.0],
        |r| {
            Ok(Affiliate {
                names: r.get(0)?,
                lastnames: r.get(1)?,
                created_at: r.get(2)?,
            })
        },
    )
}

/// The account that linked `wallet` (stored EIP-55, as the indexer hands it), if any.
pub fn by_wallet(c: Conn, wallet: &str) -> Result<Option<UserId>> {
    c.query_opt(
        "SELECT id FROM users WHERE wallet = ?1",
        args![wallet],
        |r| r.get(0).map(UserId),
    )
}

/// The account that linked `wallet` in any letter case.
pub fn by_wallet_any_case(c: Conn, wallet: &str) -> Result<Option<UserId>> {
    c.query_opt(
        "SELECT id FROM users WHERE lower(wallet) = lower(?1)",
        args![wallet],
        |r| r.get(0).map(UserId),
    )
}

/// The demo's dev wallets on seeded members (the first members with a wallet, not the demo
/// accounts), unless a wallet is already someone's. Returns how many were linked.
pub fn link_demo_wallets(c: Conn, wallets: &[String]) -> Result<usize> {
    let mut linked = 0;
    let members: Vec<i64> = c.query_all(
        "SELECT id FROM users WHERE role = ?1 AND wallet IS NOT NULL
           AND email NOT LIKE '%@lvlx.local' ORDER BY id LIMIT ?2",
        args![lvlx_core::MEMBER_ROLE, wallets.len()],
        |r| r.get(0),
    )?;
    for (wallet, member) in wallets.iter().zip(members) {
        if by_wallet_any_case(c, wallet)?.is_some() {
            continue;
        }
        set_wallet(c, UserId(member), wallet)?;
        linked += 1;
    }
    Ok(linked)
}

pub fn set_wallet(c: Conn, id: UserId, wallet: &str) -> Result<()> {
    c.execute(
        "UPDATE users SET wallet = ?2 WHERE id = ?1",
        args![id.0, wallet],
    )?;
    Ok(())
}

/// The account's LVLX balance in base units.
pub fn balance(c: Conn, id: UserId) -> Result<lvlx_core::amount::Units> {
    let text: String = c.query_one(
        "SELECT lvlx_balance FROM users WHERE id = ?1",
        args![id.0],
        |r| r.get(0),
    )?;
    super::units(&text)
}

pub fn set_balance(c: Conn, id: UserId, units: lvlx_core::amount::Units) -> Result<()> {
    c.execute(
        "UPDATE users SET lvlx_balance = ?1 WHERE id = ?2",
        args![units.to_string(), id.0],
    )?;
    Ok(())
}

/// Admins are staff, not members: the admin users table and its summary leave them out.
fn members() -> String {
    format!("role != '{ADMIN_ROLE}'")
}

/// The user general summary (docs/product/api.md#statistics) over every member.
pub fn summary(c: Conn) -> Result<Summary> {
    let corrupt = |e: lvlx_core::admin::TableError| StoreError::Corrupt(e.to_string());
    let mut builder = SummaryBuilder::default();
    c.query_each(
        &format!(
            "SELECT wallet IS NOT NULL, lvlx_balance, add_rewards FROM users WHERE {}",
            members()
        ),
        args![],
        |r| {
            builder
                .add(r.get(0)?, r.units(1)?, r.units(2)?)
                .map_err(corrupt)
        },
    )?;
    builder.finish().map_err(corrupt)
}

/// First and last registration times of members.
pub fn registration_range(c: Conn) -> Result<(Option<i64>, Option<i64>)> {
    let m = members();
    c.query_one(&format!(
            "SELECT (SELECT MIN(created_at) FROM users WHERE {m}), (SELECT MAX(created_at) FROM users WHERE {m})"
        ), args![], |r| Ok((r.get(0)?, r.get(1)?)))
}

const ADMIN_ROW: &str = "SELECT u.created_at, u.names || ' ' || u.lastnames, u.email, u.wallet,
    (SELECT COUNT(*) FROM users r WHERE r.referrer_id = u.id), u.lvlx_balance, u.add_rewards, u.rank,
    u.id, u.kyc_status, u.status
    FROM users u";

fn admin_row(r: &Row) -> Result<table::User> {
    Ok(table::User {
        created_at: r.get(0)?,
        names: r.get(1)?,
        email: r.get(2)?,
        wallet: r.get(3)?,
        referred: r.get::<i64>(4)? as u32,
        lvlx: r.units(5)?,
        rewards: r.units(6)?,
        rank: r.get(7)?,
        id: r.get(8)?,
        kyc: lvlx_core::kyc::KycStatus::parse(&r.get::<String>(9)?)
            .ok_or_else(|| StoreError::Corrupt("kyc_status".into()))?,
        blocked: r.get::<String>(10)? == crate::user::BLOCKED,
    })
}

fn admin_rows(c: Conn, sql: &str, limit: Option<u32>) -> Result<Vec<table::User>> {
    match limit {
        Some(limit) => c.query_all(sql, args![limit], admin_row),
        None => c.query_all(sql, args![], admin_row),
    }
}

/// The newest `limit` members as admin user rows.
pub fn newest_members(c: Conn, limit: u32) -> Result<Vec<table::User>> {
    admin_rows(
        c,
        &format!(
            "{ADMIN_ROW} WHERE {} ORDER BY u.created_at DESC, u.id DESC LIMIT ?1",
            members()
        ),
        Some(limit),
    )
}

/// The oldest `limit` members (the table's first page), as admin user rows.
pub fn oldest_members(c: Conn, limit: u32) -> Result<Vec<table::User>> {
    admin_rows(
        c,
        &format!(
            "{ADMIN_ROW} WHERE {} ORDER BY u.created_at, u.id LIMIT ?1",
            members()
        ),
        Some(limit),
    )
}

/// Every member, oldest first, as admin user rows.
pub fn all_members(c: Conn) -> Result<Vec<table::User>> {
    admin_rows(
        c,
        &format!(
            "{ADMIN_ROW} WHERE {} ORDER BY u.created_at, u.id",
            members()
        ),
        None,
    )
}

/// Every account's id and email (the ICO stream keys its owners by account).
pub fn emails(c: Conn) -> Result<Vec<(i64, String)>> {
    c.query_all("SELECT id, email FROM users", args![], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })
}

/// A running total kept on a member's row.
#[derive(Debug, Clone, Copy)]
pub enum Total {
    /// USDT the member's own purchases paid.
    OwnUsdt,
    /// USDT their downline's purchases paid (network volume).
    NetworkUsdt,
    /// LVLX credited: commissions and rank bonuses.
    Rewards,
}

impl Total {
    fn column(self) -> &'static str {
        match self {
            Total::OwnUsdt => "own_usdt",
            Total::NetworkUsdt => "network_usdt",
            Total::Rewards => "add_rewards",
        }
    }
}

/// Adds `amount` to `user`'s `total`; the new total.
pub fn add_to(c: Conn, user: UserId, total: Total, amount: Units) -> Result<Units> {
    let column = total.column();
    let get = format!("SELECT {column} FROM users WHERE id = ?1");
    let now: String = c.query_one(&get, args![user.0], |r| r.get(0))?;
    let next = super::units(&now)?
        .checked_add(amount)
        .ok_or_else(|| super::overflow(column))?;
    let set = format!("UPDATE users SET {column} = ?2 WHERE id = ?1");
    c.execute(&set, args![user.0, next.to_string()])?;
    Ok(next)
}

/// Takes `amount` off `user`'s `total` (a rollback took back what added it), never below zero;
/// the new total.
pub fn take_from(c: Conn, user: UserId, total: Total, amount: Units) -> Result<Units> {
    let column = total.column();
    let get = format!("SELECT {column} FROM users WHERE id = ?1");
    let now: String = c.query_one(&get, args![user.0], |r| r.get(0))?;
    let next = super::units(&now)?.saturating_sub(amount);
    let set = format!("UPDATE users SET {column} = ?2 WHERE id = ?1");
    c.execute(&set, args![user.0, next.to_string()])?;
    Ok(next)
}

/// The tables the users statistics read (every figure of a member row lives on it): a change
/// remakes the kept answers.
pub const ANSWER_TABLES: &[&str] = &["users"];

/// Every account's kept totals, by id.
pub fn kept(c: Conn) -> Result<Vec<Kept>> {
    c.query_all(
        "SELECT id, referrer_id, lvlx_balance, add_rewards, network_usdt, own_usdt, rank, activation_node
         FROM users ORDER BY id",
        args![],
        |r| {
            Ok(Kept {
                id: r.get(0)?,
                referrer: r.get(1)?,
                balance: r.units(2)?,
                rewards: r.units(3)?,
                network: r.units(4)?,
                own: r.units(5)?,
                rank: r.get(6)?,
                node: r.get::<i64>(7)? != 0,
            })
        },
    )
}
