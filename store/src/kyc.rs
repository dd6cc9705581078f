//! Identity verification records: each account's status, the reference the
//! provider's events name it by, the provider events accepted (once per id) and admins'
//! changes (in the append-only admin_audit).

use crate::args;
use lvlx_core::kyc::KycStatus;
use serde::Serialize;

use super::{Conn, Dialect, Result, StoreError};
use crate::user::UserId;

/// An account's verification as the member and admins see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = KycState)]
#[serde(rename_all = "camelCase")]
pub struct Kyc {
    pub status: KycStatus,
    /// When the status was set (ms; 0 = never).
    pub updated_at: i64,
    /// The provider's reference for the account, once made.
    #[serde(skip)]
    pub reference: Option<String>,
}

fn status(text: String) -> Result<KycStatus> {
    KycStatus::parse(&text).ok_or_else(|| StoreError::Corrupt(format!("kyc_status {text:?}")))
}

pub fn of(c: Conn, user: UserId) -> Result<Kyc> {
    c.query_one(
        "SELECT kyc_status, kyc_updated_at, kyc_reference FROM users WHERE id = ?1",
        args![user.0],
        |r| {
            Ok(Kyc {
                status: status(r.get(0)?)?,
                updated_at: r.get(1)?,
                reference: r.get(2)?,
            })
        },
    )
}

/// The account's provider reference, made once (`fresh` is used when it has none yet).
pub fn reference(c: Conn, user: UserId, fresh: &str) -> Result<String> {
    c.execute(
        "UPDATE users SET kyc_reference = ?2 WHERE id = ?1 AND kyc_reference IS NULL",
        args![user.0, fresh],
    )?;
    c.query_one(
        "SELECT kyc_reference FROM users WHERE id = ?1",
        args![user.0],
        |r| r.get(0),
    )
}

/// The account a provider reference (or, failing that, a provider inquiry id) names.
pub fn account_of(
    c: Conn,
    reference: Option<&str>,
    inquiry: Option<&str>,
) -> Result<Option<UserId>> {
    let found = c.query_opt("SELECT id FROM users WHERE (CAST(?1 AS TEXT) IS NOT NULL AND kyc_reference = ?1) OR (CAST(?2 AS TEXT) IS NOT NULL AND kyc_inquiry = ?2)
         ORDER BY kyc_reference = ?1 DESC LIMIT 1", args![reference, inquiry], |r| r.get(0));
    Ok(found?.map(UserId))
}

/// A provider event as the store keeps it.
pub struct Event<'a> {
    pub id: &'a str,
    pub name: &'a str,
    /// The account it names, when known.
    pub user: Option<UserId>,
    /// The provider's applicant (inquiry) id.
    pub inquiry: Option<&'a str>,
    /// The status it moves the account to, if any.
    pub next: Option<KycStatus>,
    pub occurred_at: i64,
}

/// A provider event, applied at most once. Returns false when the event id was seen before
/// (nothing changes). The status moves only when the event is newer than the status it finds,
/// so events delivered out of order never step back.
pub fn accept_event(c: Conn, e: &Event, received_at: i64) -> Result<bool> {
    let fresh = c.execute(
        "INSERT OR IGNORE INTO kyc_events (event_id, user_id, name, occurred_at, received_at, applied)
         VALUES (?1, ?2, ?3, ?4, ?5, 0)", args![e.id, e.user.map(|u| u.0), e.name, e.occurred_at, received_at])? == 1;
    if !fresh {
        return Ok(false);
    }
    let (Some(user), Some(next)) = (e.user, e.next) else {
        return Ok(true);
    };
    if let Some(inquiry) = e.inquiry {
        c.execute(
            "UPDATE users SET kyc_inquiry = ?2 WHERE id = ?1",
            args![user.0, inquiry],
        )?;
    }
    let applied = c.execute(
        "UPDATE users SET kyc_status = ?2, kyc_updated_at = ?3 WHERE id = ?1 AND kyc_updated_at <= ?3", args![user.0, next.as_str(), e.occurred_at])? == 1;
    if applied {
        c.execute(
            "UPDATE kyc_events SET applied = 1 WHERE event_id = ?1",
            args![e.id],
        )?;
    }
    Ok(true)
}

/// Sets `user`'s status `next` as of `now` (never moving its time back).
pub fn set(c: Conn, user: UserId, next: KycStatus, now: i64) -> Result<()> {
    c.execute(
        "UPDATE users SET kyc_status = ?2, kyc_updated_at = CASE WHEN kyc_updated_at > ?3 THEN kyc_updated_at ELSE ?3 END WHERE id = ?1",
        args![user.0, next.as_str(), now],
    )?;
    Ok(())
}

/// One status change of an account: by an admin (with their email and reason) or by the
/// provider (an applied event).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = KycChange)]
#[serde(rename_all = "camelCase")]
pub struct Change {
    pub at: i64,
    pub status: KycStatus,
    /// The admin's email; None for the provider.
    pub admin: Option<String>,
    pub reason: Option<String>,
    /// The provider's event name.
    pub event: Option<String>,
}

/// The newest `limit` changes of an account's status, newest first.
pub fn history(c: Conn, user: UserId, limit: i64) -> Result<Vec<Change>> {
    // Admins' changes carry their status; provider events their name (the core maps it).
    let mut out: Vec<Change> = Vec::new();
    let admins_sql = match c.dialect() {
        Dialect::Sqlite => {
            "SELECT a.at, json_extract(a.after, '$.status'), u.email, json_extract(a.after, '$.reason')
               FROM admin_audit a JOIN users u ON u.id = a.admin_id
              WHERE a.subject = 'kyc' AND a.item = ?1 ORDER BY a.id DESC LIMIT ?2"
        }
        Dialect::Postgres => {
            "SELECT a.at, a.after::json->>'status', u.email, a.after::json->>'reason'
               FROM admin_audit a JOIN users u ON u.id = a.admin_id
              WHERE a.subject = 'kyc' AND a.item = ?1 ORDER BY a.id DESC LIMIT ?2"
        }
    };
    for row in c.query_all(admins_sql, args![user.0, limit], |r| {
        Ok(Change {
            at: r.get(0)?,
            status: status(r.get(1)?)?,
            admin: Some(r.get(2)?),
            reason: r.get(3)?,
            event: None,
        })
    })? {
        out.push(row);
    }
    let events_sql = "SELECT occurred_at, name FROM kyc_events WHERE user_id = ?1 AND applied = 1
          ORDER BY occurred_at DESC LIMIT ?2";
    for row in c.query_all(events_sql, args![user.0, limit], |r| {
        Ok((r.get::<i64>(0)?, r.get::<String>(1)?))
    })? {
        let (at, name) = row;
        if let Some(next) = lvlx_core::kyc::status_after_event(&name) {
            out.push(Change {
                at,
                status: next,
                admin: None,
                reason: None,
                event: Some(name),
            });
        }
    }
    out.sort_by_key(|change| std::cmp::Reverse(change.at));
    out.truncate(limit as usize);
    Ok(out)
}
