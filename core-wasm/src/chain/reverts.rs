//! Revert reasons as translation keys: a custom error of the platform's contracts or
//! OpenZeppelin's, in words a buyer can act on.

use super::{bytes, Contract};

/// The translation key that explains a revert, from its data (a custom error of the platform's
/// contracts or OpenZeppelin's): what a buyer can act on, in plain words.
pub const REVERT_KEYS: [&str; 30] = [
    "chain-reverted",
    "chain-insufficient-balance",
    "chain-insufficient-allowance",
    "chain-sale-paused",
    "chain-sold-out",
    "chain-price-moved",
    "chain-self-referral",
    "chain-amount-too-small",
    "chain-not-for-sale",
    "chain-reserve-short",
    "chain-not-released",
    "chain-nothing-to-withdraw",
    "chain-not-yours",
    "chain-insufficient-nfts",
    "chain-nft-approval",
    "staking-not-offered",
    "chain-node-active",
    "chain-node-not-on-sale",
    "chain-voucher-expired",
    "chain-voucher-invalid",
    "chain-nothing-to-claim",
    "chain-claim-cap",
    "chain-claim-daily-cap",
    "chain-claim-account-daily-cap",
    "chain-terms-moved",
    "staking-reward-zero",
    "chain-change-not-scheduled",
    "chain-change-too-early",
    "chain-change-lapsed",
    "chain-claims-closed",
];

/// The platform's contracts prefix their errors with the contract's name (`IcoSaleSoldOut`,
/// `RewardReserveNotYours`); the key is the same whichever contract says it.
const PREFIXES: [&str; 8] = [
    "IcoSale",
    "NftSale",
    "LevelNFT",
    "RewardReserve",
    "NftStaking",
    "ActivationNode",
    "ClaimDistributor",
    "Owned",
];

fn unprefixed(name: &str) -> &str {
    PREFIXES
        .iter()
        .find_map(|p| name.strip_prefix(p))
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
        .unwrap_or(name)
}

pub fn revert_key(data: &str) -> &'static str {
    let Ok(data) = bytes(data) else {
        return "chain-reverted";
    };
    let Some(selector) = data.get(..4) else {
        return "chain-reverted";
    };
    let name = [
        Contract::IcoSale,
        Contract::MockUsdt,
        Contract::LevelNft,
        Contract::NftSale,
        Contract::NftStaking,
        Contract::ActivationNode,
        Contract::ClaimDistributor,
    ]
    .iter()
    .flat_map(|c| c.abi().errors())
    .find(|e| &e.signature().as_bytes()[..4] == selector)
    .map(|e| unprefixed(&e.name));
    match name {
        Some("ERC20InsufficientBalance") => "chain-insufficient-balance",
        Some("ERC20InsufficientAllowance") => "chain-insufficient-allowance",
        Some("EnforcedPause") => "chain-sale-paused",
        Some("SoldOut") => "chain-sold-out",
        Some("PriceMoved") => "chain-price-moved",
        Some("SelfReferral") => "chain-self-referral",
        Some("ZeroAmount") => "chain-amount-too-small",
        Some("NotForSale") => "chain-not-for-sale",
        Some("ReserveShort") => "chain-reserve-short",
        Some("NotReleased") => "chain-not-released",
        Some("NothingToWithdraw") => "chain-nothing-to-withdraw",
        Some("NotYours" | "AlreadyClosed") => "chain-not-yours",
        Some("ERC1155InsufficientBalance") => "chain-insufficient-nfts",
        Some("ERC1155MissingApprovalForAll") => "chain-nft-approval",
        Some("UnknownTerms") => "staking-not-offered",
        Some("AlreadyActive") => "chain-node-active",
        Some("NotOnSale") => "chain-node-not-on-sale",
        Some("VoucherExpired") => "chain-voucher-expired",
        Some("BadSignature" | "ECDSAInvalidSignature" | "ECDSAInvalidSignatureLength") => {
            "chain-voucher-invalid"
        }
        Some("NothingToClaim") => "chain-nothing-to-claim",
        Some("OverClaimCap") => "chain-claim-cap",
        Some("OverDailyCap") => "chain-claim-daily-cap",
        Some("OverAccountDailyCap") => "chain-claim-account-daily-cap",
        Some("TermsMoved") => "chain-terms-moved",
        Some("ZeroReward") => "staking-reward-zero",
        Some("NotScheduled") => "chain-change-not-scheduled",
        Some("TooEarly") => "chain-change-too-early",
        Some("Lapsed") => "chain-change-lapsed",
        Some("ClaimsClosed") => "chain-claims-closed",
        _ => "chain-reverted",
    }
}
