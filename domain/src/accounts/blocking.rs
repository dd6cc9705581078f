//! An admin blocks or unblocks a member's account: blocked, it cannot sign in (by password,
//! registration or recovery) and every session it holds ends at once. The change and its
//! reason go into the append-only audit in the same transaction; admins' accounts are not
//! blocked here (one admin cannot lock out another).

use crate::error::Error;
use crate::store::{sessions, users};
use crate::user::{UserId, ACTIVE, BLOCKED};

/// An account's status after a change.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = AccountStatus)]
pub struct Status {
    /// active | blocked.
    status: &'static str,
}

/// Sets member `user`'s status to `status` (`active` or `blocked`) with a reason (1–500
/// characters, trimmed); blocking revokes their sessions. Audited as `account-status`.
pub async fn set(
    store: &crate::Store,
    admin: UserId,
    user: UserId,
    status: &str,
    reason: &str,
) -> Result<Status, Error> {
    let next = [ACTIVE, BLOCKED]
        .into_iter()
        .find(|s| *s == status)
        .ok_or_else(|| Error::Malformed("status: active | blocked".into()))?;
    let reason = reason.trim().to_string();
    if !lvlx_core::kyc::valid_reason(&reason) {
        return Err(Error::Rule("kyc-reason-required"));
    }
    store
        .write(move |c| {
            c.transaction(|tx| {
                let member = users::by_id(tx, user)?.ok_or(Error::NotFound)?;
                if member.is_admin() {
                    return Err(Error::Forbidden);
                }
                let now = crate::now_ms();
                let before = users::set_status(tx, user, next)?.ok_or(Error::NotFound)?;
                if next == BLOCKED {
                    sessions::revoke_all(tx, user, now)?;
                }
                crate::store::audit::append(
                    tx,
                    "account-status",
                    Some(user.0),
                    admin,
                    now,
                    Some(serde_json::json!({ "status": before })),
                    &serde_json::json!({ "status": next, "reason": reason }),
                )?;
                Ok(Status { status: next })
            })
        })
        .await
}
