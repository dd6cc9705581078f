//! The account model (docs/product/api.md#user) and the payload the browser keeps after sign-in.

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

/// What the browser stores after a member signs in (docs/product/api.md#user): the account, its
/// referrals, the interest its positions paid (`withdrawNFTs`, `withdrawLVLXs`) and its network
/// parts. `avatarKey` opens the member's avatar (`accounts::avatars::avatar_key`).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberPayload {
    pub names: String,
    pub lastnames: String,
    pub email: String,
    #[schema(value_type = i64)]
    pub id: UserId,
    pub wallet: Option<String>,
    pub status: String,
    pub role: String,
    pub language: String,
    pub affiliates: Vec<Affiliate>,
    pub user_code_link: String,
    #[serde(rename = "withdrawNFTs")]
    pub withdraw_nfts: crate::staking::Withdrawals,
    #[serde(rename = "withdrawLVLXs")]
    pub withdraw_lvlxs: crate::staking::Withdrawals,
    #[serde(flatten)]
    pub network: crate::network::pages::PayloadParts,
    pub has_avatar: bool,
    pub avatar_key: String,
    /// none | pending | approved | rejected.
    pub kyc_status: lvlx_core::kyc::KycStatus,
}

/// What the browser stores after an admin signs in (docs/product/api.md#admin-info).
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
