//! The domain's one error type. It knows nothing of HTTP: each variant has a stable `code`,
//! which is also a translation key (`error-…`, or a field rule's `validations-…`);
//! the API's edge (`api::error`) alone maps it to a status and a `{code, message}` body, and the
//! command line prints it.

use lvlx_core::siwe::SiweError;
use lvlx_core::validation::Invalid;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("not found")]
    NotFound,
    #[error("too large")]
    TooLarge,
    #[error("not a JPEG or PNG image")]
    NotAnImage,
    #[error("malformed request: {0}")]
    Malformed(String),
    #[error("invalid field: {0}")]
    Invalid(Invalid),
    /// A rule of the core refused a configuration (its translation key).
    #[error("refused by a rule: {0}")]
    Rule(&'static str),
    #[error("authentication required")]
    Unauthorized,
    #[error("email or password is wrong")]
    Credentials,
    #[error("the code is wrong, used or expired")]
    Code,
    #[error("the captcha was not solved")]
    Captcha,
    #[error("unknown referral code")]
    ReferralUnknown,
    #[error("this email already has an account")]
    EmailTaken,
    #[error("not allowed for this account")]
    Forbidden,
    /// An admin blocked the account: no sign-in, no session.
    #[error("this account is blocked")]
    Blocked,
    #[error("the secret is wrong")]
    SecretWrong,
    #[error("no operational key has been provisioned")]
    SecretMissing,
    #[error("wallet link refused: {0}")]
    WalletLink(SiweError),
    #[error("this wallet belongs to another account")]
    WalletTaken,
    #[error("this account already has another wallet")]
    WalletAlreadyLinked,
    /// The action needs a linked wallet.
    #[error("link a wallet first")]
    WalletRequired,
    #[error("nothing to claim")]
    NothingToClaim,
    /// A change only the contracts' owner can make, and this server cannot send as the owner.
    #[error("this change is the contract owner's step")]
    OwnerStep,
    /// The chain node cannot be reached, or the contracts are not configured.
    #[error("the chain is not available")]
    ChainUnavailable,
    /// A check of the books is running already.
    #[error("the books are being checked")]
    BooksRunning,
    #[error("too many requests, retry in {retry_after_secs} s")]
    RateLimited { retry_after_secs: u64 },
    /// Storage failed; details are logged, never sent.
    #[error("internal error")]
    Store(#[from] StoreError),
    /// Anything else that is our fault; details are logged, never sent.
    #[error("internal error")]
    Internal(String),
}

impl From<lvlx_core::network::NetworkError> for Error {
    fn from(e: lvlx_core::network::NetworkError) -> Self {
        Error::Rule(e.key())
    }
}

impl From<lvlx_core::staking::page::Overflow> for Error {
    fn from(e: lvlx_core::staking::page::Overflow) -> Self {
        Error::Internal(e.to_string())
    }
}

impl From<lvlx_chain::reads::ReadError> for Error {
    fn from(e: lvlx_chain::reads::ReadError) -> Self {
        match e {
            lvlx_chain::reads::ReadError::Unavailable => Error::ChainUnavailable,
            lvlx_chain::reads::ReadError::Task(detail) => Error::Internal(detail),
        }
    }
}

impl From<Invalid> for Error {
    fn from(invalid: Invalid) -> Self {
        Error::Invalid(invalid)
    }
}

impl Error {
    /// A chain read that failed, logged with its cause; the caller is told the chain is not
    /// available.
    pub fn unavailable(e: impl std::fmt::Display) -> Error {
        tracing::warn!(error = %e, "chain read failed");
        Error::ChainUnavailable
    }

    /// Every code the server can emit, for the translation test (locales must have each).
    pub const CODES: &'static [&'static str] = &[
        "error-not-found",
        "error-too-large",
        "error-media-type",
        "error-bad-request",
        "error-unauthorized",
        "error-credentials",
        "error-code",
        "error-captcha",
        "error-referral-unknown",
        "error-email-taken",
        "error-forbidden",
        "error-account-blocked",
        "error-secret-wrong",
        "error-secret-missing",
        "error-wallet-link-expired",
        "error-wallet-link-failed",
        "error-wallet-taken",
        "error-wallet-already-linked",
        "error-rate-limit",
        "error-chain-unavailable",
        "error-wallet-required",
        "error-nothing-to-claim",
        "error-owner-step",
        "error-books-running",
        "owner-proposal-not-owner",
        "owner-proposal-executed",
        "owner-proposal-not-executed",
        "owner-proposal-queue-full",
        "owner-proposal-admin-full",
        "owner-proposal-passed",
        "network-levels-invalid",
        "ranks-id-invalid",
        "ranks-name-invalid",
        "ranks-threshold-invalid",
        "error-kyc-required",
        "error-storage-full",
        "kyc-reason-required",
        "onramp-unavailable",
        "error-internal",
    ];

    /// Stable code; the web app translates it.
    pub fn code(&self) -> &'static str {
        match self {
            Error::NotFound => "error-not-found",
            Error::TooLarge => "error-too-large",
            Error::NotAnImage => "error-media-type",
            Error::Malformed(_) => "error-bad-request",
            Error::Invalid(invalid) => invalid.key(),
            Error::Rule(key) => key,
            Error::Unauthorized => "error-unauthorized",
            Error::Credentials => "error-credentials",
            Error::Code => "error-code",
            Error::Captcha => "error-captcha",
            Error::ReferralUnknown => "error-referral-unknown",
            Error::EmailTaken => "error-email-taken",
            Error::WalletLink(e) => e.key(),
            Error::WalletTaken => "error-wallet-taken",
            Error::WalletAlreadyLinked => "error-wallet-already-linked",
            Error::Forbidden => "error-forbidden",
            Error::Blocked => "error-account-blocked",
            Error::SecretWrong => "error-secret-wrong",
            Error::SecretMissing => "error-secret-missing",
            Error::RateLimited { .. } => "error-rate-limit",
            Error::ChainUnavailable => "error-chain-unavailable",
            Error::WalletRequired => "error-wallet-required",
            Error::NothingToClaim => "error-nothing-to-claim",
            Error::OwnerStep => "error-owner-step",
            Error::BooksRunning => "error-books-running",
            Error::Store(e) if e.is_full() => "error-storage-full",
            Error::Store(_) | Error::Internal(_) => "error-internal",
        }
    }

    /// The details of an internal failure, for the log only.
    pub fn detail(&self) -> Option<String> {
        match self {
            Error::Store(e) => Some(e.to_string()),
            Error::Internal(detail) => Some(detail.clone()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_listed() {
        let samples = [
            Error::NotFound,
            Error::TooLarge,
            Error::NotAnImage,
            Error::Malformed(String::new()),
            Error::Unauthorized,
            Error::Credentials,
            Error::ChainUnavailable,
            Error::Code,
            Error::Captcha,
            Error::ReferralUnknown,
            Error::EmailTaken,
            Error::Forbidden,
            Error::Blocked,
            Error::SecretWrong,
            Error::SecretMissing,
            Error::WalletLink(SiweError::Nonce),
            Error::WalletLink(SiweError::Signature),
            Error::WalletTaken,
            Error::WalletAlreadyLinked,
            Error::WalletRequired,
            Error::NothingToClaim,
            Error::OwnerStep,
            Error::BooksRunning,
            Error::Rule("network-levels-invalid"),
            Error::Rule("ranks-id-invalid"),
            Error::Rule("ranks-name-invalid"),
            Error::Rule("ranks-threshold-invalid"),
            Error::Rule(lvlx_core::kyc::KYC_REQUIRED),
            Error::Store(StoreError::Database {
                failure: crate::store::Failure::Full,
                detail: String::new(),
            }),
            Error::Rule("kyc-reason-required"),
            Error::Rule("onramp-unavailable"),
            Error::Rule("owner-proposal-not-owner"),
            Error::Rule("owner-proposal-executed"),
            Error::Rule("owner-proposal-not-executed"),
            Error::Rule("owner-proposal-queue-full"),
            Error::Rule("owner-proposal-admin-full"),
            Error::Rule("owner-proposal-passed"),
            Error::RateLimited {
                retry_after_secs: 1,
            },
            Error::Internal(String::new()),
        ];
        for e in &samples {
            assert!(
                Error::CODES.contains(&e.code()),
                "{} is not in CODES",
                e.code()
            );
        }
        assert_eq!(samples.len(), Error::CODES.len());
    }
}
