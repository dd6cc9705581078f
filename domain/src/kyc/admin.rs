//! Admins' side of identity verification: an account's status with its history, and a
//! correction with a required reason, written with its audit row in one transaction.

use lvlx_core::kyc::KycStatus;

use crate::error::Error;
use crate::live::Push;
use crate::store::{kyc as records, users};
use crate::user::UserId;

/// Changes an admin's dialog lists.
const HISTORY_ROWS: i64 = 50;
/// An account's verification with its newest changes, for an admin.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KycView {
    status: KycStatus,
    /// When the status was set (ms; 0 = never).
    updated_at: i64,
    /// Newest first.
    history: Vec<records::Change>,
}

/// The account's status, when it was set and its history.
pub async fn view(store: &crate::Store, user: UserId) -> Result<KycView, Error> {
    store
        .read(move |c| {
            users::by_id(c, user)?.ok_or(Error::NotFound)?;
            let kyc = records::of(c, user)?;
            let history = records::history(c, user, HISTORY_ROWS)?;
            Ok(KycView {
                status: kyc.status,
                updated_at: kyc.updated_at,
                history,
            })
        })
        .await
}

/// Sets or corrects a member's status (never an admin's); the reason (1–500 characters, trimmed)
/// and the admin go into the append-only audit with it. The member is told (through `hub`).
pub async fn set(
    store: &crate::Store,
    hub: &crate::live::Hub,
    admin: UserId,
    user: UserId,
    status: &str,
    reason: &str,
) -> Result<records::Kyc, Error> {
    let next = KycStatus::parse(status)
        .ok_or_else(|| Error::Malformed("status: none | pending | approved | rejected".into()))?;
    let reason = reason.trim().to_string();
    if !lvlx_core::kyc::valid_reason(&reason) {
        return Err(Error::Rule("kyc-reason-required"));
    }
    let kyc = store
        .write(move |c| {
            c.transaction(|tx| {
                let member = users::by_id(tx, user)?.ok_or(Error::NotFound)?;
                if member.is_admin() {
                    return Err(Error::Forbidden);
                }
                // The audit row says who, why and what it was.
                let now = crate::now_ms();
                let before = records::of(tx, user)?;
                records::set(tx, user, next, now)?;
                crate::store::audit::append(
                    tx,
                    "kyc",
                    Some(user.0),
                    admin,
                    now,
                    Some(serde_json::json!({ "status": before.status })),
                    &serde_json::json!({ "status": next, "reason": reason }),
                )?;
                Ok(records::of(tx, user)?)
            })
        })
        .await?;
    hub.push(Push::Network { user, event: "kyc" });
    Ok(kyc)
}
