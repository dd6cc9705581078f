//! The account model (docs/product/api.md#user) and the payload the browser keeps after sign-in.

use serde::Serialize;

pub use crate::store::user::{Affiliate, NewUser, User, UserId, ACTIVE, BLOCKED};

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
