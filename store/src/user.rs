//! The account as the store keeps it: its id, its row, what a new one is made of, and the
//! members someone brought in.

use serde::Serialize;

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

/// The statuses an account has: `active`, or `blocked` by an admin (no sign-in, no session).
pub const ACTIVE: &str = "active";
pub const BLOCKED: &str = "blocked";

impl User {
    pub fn is_admin(&self) -> bool {
        self.role == lvlx_core::ADMIN_ROLE
    }

    pub fn is_blocked(&self) -> bool {
        self.status == BLOCKED
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

/// A member someone brought in (`affiliates`, docs/product/api.md#user).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Affiliate {
    pub names: String,
    pub lastnames: String,
    pub created_at: i64,
}
