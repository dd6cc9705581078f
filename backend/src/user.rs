//! The account model (SPEC §3 "User") and the payload the browser keeps after sign-in.

use serde::Serialize;
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct UserId(pub i64);

#[derive(Debug, Clone)]
pub struct User {
    pub id: UserId,
    pub email: String,
    pub names: String,
    pub lastnames: String,
    pub role: String,
    pub status: String,
    pub language: String,
    pub password_hash: String,
    pub referral_code: String,
    pub wallet: Option<String>,
    pub activation_node: bool,
    pub has_avatar: bool,
}

impl User {
    pub fn is_admin(&self) -> bool {
        self.role == lvlx_core::ADMIN_ROLE
    }
}

/// What a new account is made of.
pub struct NewUser<'a> {
    pub email: &'a str,
    pub names: &'a str,
    pub lastnames: &'a str,
    pub phone: &'a str,
    pub role: &'a str,
    pub language: &'a str,
    pub password_hash: &'a str,
    pub referrer: Option<UserId>,
}

/// A member someone brought in (SPEC §3 User.affiliates).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Affiliate {
    pub names: String,
    pub lastnames: String,
    pub created_at: i64,
}

/// What the browser stores after a member signs in (SPEC §3 "User"). Sign-in fills the
/// staking and network parts (withdrawals, claims, activationNode, userRankData).
/// `avatar_key` opens the member's avatar (`api::images::avatar_key`).
pub fn payload(user: &User, affiliates: &[Affiliate], avatar_key: &str) -> Value {
    json!({
        "names": user.names,
        "lastnames": user.lastnames,
        "email": user.email,
        "id": user.id,
        "wallet": user.wallet,
        "status": user.status,
        "role": user.role,
        "language": user.language,
        "affiliates": affiliates,
        "userCodeLink": user.referral_code,
        "claims": {"claims": [], "total": "0"},
        "maticClaim": "0",
        "withdrawNFTs": {"interests": [], "total": "0"},
        "withdrawLVLXs": {"interests": [], "total": "0"},
        "activationNode": user.activation_node,
        "userRankData": null,
        "hasAvatar": user.has_avatar,
        "avatarKey": avatar_key,
    })
}

/// What the browser stores after an admin signs in (SPEC §3 "Admin info").
pub fn admin_payload(user: &User) -> AdminPayload {
    AdminPayload {
        names: user.names.clone(),
        lastnames: user.lastnames.clone(),
        role_admin: user.role.clone(),
        email: user.email.clone(),
    }
}

/// The signed-in admin, as the side menu shows them.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminPayload {
    names: String,
    lastnames: String,
    /// The admin's role.
    role_admin: String,
    email: String,
}
