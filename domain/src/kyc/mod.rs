//! Identity verification glue (docs/product/help.md#kyc). The provider is Persona: members verify
//! in its hosted flow, opened with the account's opaque reference; Persona reports each inquiry's
//! progress to a webhook whose body is signed (`Persona-Signature: t=<unix>,v1=<hex>`, an
//! HMAC-SHA256 of "t.body" with the webhook secret). What an event means is the core's
//! (`lvlx_core::kyc`); the records are `store::kyc`.

pub mod admin;

use lvlx_core::kyc::webhook::{self, Event, WebhookError};
use lvlx_core::kyc::{self as rules, KycStatus};

use crate::config::{self, Config};
use crate::error::Error;
use crate::store::{self, Conn};
use crate::user::UserId;

/// The largest webhook body accepted (Persona's events are a few KB).
pub const WEBHOOK_MAX_BYTES: u64 = 64 * 1024;

/// Applies a verified event once: (false when its id was seen before, the account it names).
pub fn accept(c: Conn, event: &Event, now_ms: i64) -> Result<(bool, Option<UserId>), Error> {
    let user = store::kyc::account_of(c, event.reference.as_deref(), event.inquiry.as_deref())?;
    let next = rules::status_after_event(&event.name);
    let fresh = store::kyc::accept_event(
        c,
        &store::kyc::Event {
            id: &event.id,
            name: &event.name,
            user,
            inquiry: event.inquiry.as_deref(),
            next,
            occurred_at: event.created_at_ms,
        },
        now_ms,
    )?;
    Ok((fresh, user))
}

/// The member's view: status, when it was set, and where to verify (null when the provider is
/// not configured, or when there is nothing left to do). On a reader (`write` false) it is
/// `None` when the account still needs its provider reference made: ask again on the writer.
pub fn member_view(
    c: Conn,
    config: &Config,
    user: UserId,
    write: bool,
) -> Result<Option<MemberKyc>, Error> {
    let kyc = store::kyc::of(c, user)?;
    let start = match (&config.kyc, kyc.status) {
        (Some(provider), KycStatus::None | KycStatus::Rejected) => {
            let reference = match kyc.reference {
                Some(reference) => reference,
                None if write => store::kyc::reference(c, user, &crate::crypto::random_hex(16))?,
                None => return Ok(None),
            };
            Some(flow_url(provider, &reference)?)
        }
        _ => None,
    };
    Ok(Some(MemberKyc {
        status: kyc.status,
        updated_at: kyc.updated_at,
        start_url: start,
        available: config.kyc.is_some(),
    }))
}

/// The member's verification.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberKyc {
    status: KycStatus,
    /// When the status was set (ms; 0 = never).
    updated_at: i64,
    /// Where to verify; null without a provider or with nothing left to do.
    start_url: Option<String>,
    /// Whether a provider is configured.
    available: bool,
}

/// A webhook delivery was taken: applied now, or seen before.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Received {
    #[schema(value_type = String, pattern = "^(accepted|duplicate)$")]
    received: &'static str,
}

/// Persona's hosted flow for this account's reference: the configured `flow_url` (checked at
/// start, [`check_flow_url`]) with the template, the reference and the environment added to its
/// query, each encoded.
fn flow_url(provider: &config::Kyc, reference: &str) -> Result<String, Error> {
    let mut url = url::Url::parse(&provider.flow_url)
        .map_err(|e| Error::Internal(format!("kyc flow_url: {e}")))?;
    {
        let mut query = url.query_pairs_mut();
        query
            .append_pair("inquiry-template-id", &provider.template_id)
            .append_pair("reference-id", reference);
        if !provider.environment_id.is_empty() {
            query.append_pair("environment-id", &provider.environment_id);
        }
    }
    Ok(url.into())
}

/// Refuses a `kyc.flow_url` that is not an absolute http(s) URL, at start.
pub fn check_flow_url(config: &Config) -> Result<(), String> {
    let Some(provider) = &config.kyc else {
        return Ok(());
    };
    match url::Url::parse(&provider.flow_url) {
        Ok(url) if matches!(url.scheme(), "https" | "http") => Ok(()),
        _ => Err(format!(
            "kyc.flow_url {:?}: not an http(s) URL",
            provider.flow_url
        )),
    }
}

/// The claim threshold in LVLX base units, read from the configuration (checked at start).
pub fn claim_threshold(config: &Config) -> Result<Option<lvlx_core::amount::Units>, String> {
    config
        .kyc_claim_threshold
        .as_deref()
        .map(|t| {
            lvlx_core::amount::parse_units(t, lvlx_core::LVLX_DECIMALS)
                .map_err(|e| format!("kyc_claim_threshold {t:?}: {e}"))
        })
        .transpose()
}

/// Refuses a claim that brings what `user` has claimed to `claimed` (the voucher's cumulative)
/// when that needs an identity the account has not had approved.
pub fn check_claim(
    c: Conn,
    threshold: Option<lvlx_core::amount::Units>,
    user: UserId,
    claimed: lvlx_core::amount::Units,
) -> Result<(), Error> {
    let status = store::kyc::of(c, user)?.status;
    if rules::claim_allowed(claimed, threshold, status) {
        Ok(())
    } else {
        Err(Error::Rule(rules::KYC_REQUIRED))
    }
}

/// How much more `user`, having claimed `claimed` in all, may claim before the identity rule
/// stops them (`lvlx_core::kyc::claim_room`; `None` = no limit).
pub fn claim_room(
    c: Conn,
    threshold: Option<lvlx_core::amount::Units>,
    user: UserId,
    claimed: lvlx_core::amount::Units,
) -> Result<Option<lvlx_core::amount::Units>, Error> {
    let status = store::kyc::of(c, user)?.status;
    Ok(rules::claim_room(claimed, threshold, status))
}

/// What is claimable for `user`, split by the identity rule into what a claim may pay now and
/// what waits for a verified identity (`lvlx_core::kyc::claim_split`; `claimed` is what the
/// distributor has paid the member's wallet in all).
pub fn claim_split(
    c: Conn,
    threshold: Option<lvlx_core::amount::Units>,
    user: UserId,
    claimable: lvlx_core::amount::Units,
    claimed: lvlx_core::amount::Units,
) -> Result<rules::ClaimSplit, Error> {
    let status = store::kyc::of(c, user)?.status;
    Ok(rules::claim_split(claimable, claimed, threshold, status))
}

/// The member's view ([`member_view`]): read, and on the first visit written, where the
/// account's provider reference is made.
pub async fn member(
    store: &crate::Store,
    config: &std::sync::Arc<Config>,
    user: UserId,
) -> Result<MemberKyc, Error> {
    let config = config.clone();
    let read = config.clone();
    if let Some(view) = store
        .read(move |c| member_view(c, &read, user, false))
        .await?
    {
        return Ok(view);
    }
    store
        .write(move |c| member_view(c, &config, user, true))
        .await?
        .ok_or_else(|| Error::Internal("kyc reference not made".into()))
}

/// A webhook delivery: its signature checked against the raw body, then the event applied
/// once in one transaction, and the member told. `{received: accepted | duplicate}`.
/// The member is told through `hub`.
pub async fn receive(
    store: &crate::Store,
    config: &Config,
    hub: &crate::live::Hub,
    signature: &str,
    body: &[u8],
) -> Result<Received, Error> {
    let provider = config.kyc.as_ref().ok_or(Error::NotFound)?;
    webhook::verify_signature(
        signature,
        body,
        provider.webhook_secret.expose(),
        crate::now_ms() / 1000,
        provider.tolerance_secs,
    )
    .map_err(refused)?;
    let event = Event::parse(body).map_err(refused)?;
    let (fresh, member) = store
        .write(move |c| c.transaction(|tx| accept(tx, &event, crate::now_ms())))
        .await?;
    if let (true, Some(user)) = (fresh, member) {
        hub.push(crate::live::Push::Network { user, event: "kyc" });
    }
    Ok(Received {
        received: if fresh { "accepted" } else { "duplicate" },
    })
}

/// A delivery's signature or event refused, as the API answers it.
fn refused(e: WebhookError) -> Error {
    match e {
        WebhookError::Signature => Error::Unauthorized,
        WebhookError::Malformed(_) => Error::Malformed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flow_url_encodes_its_values_and_keeps_its_own_query() {
        let mut provider = config::Kyc {
            webhook_secret: config::Secret::new("s"),
            template_id: "itmpl_A B&c=d".into(),
            environment_id: "env_1".into(),
            flow_url: "https://withpersona.com/verify".into(),
            tolerance_secs: 300,
        };
        assert_eq!(
            flow_url(&provider, "ref1").unwrap(),
            "https://withpersona.com/verify?inquiry-template-id=itmpl_A+B%26c%3Dd&reference-id=ref1&environment-id=env_1"
        );
        provider.flow_url = "https://verify.example/start?locale=es".into();
        provider.environment_id.clear();
        assert_eq!(
            flow_url(&provider, "r").unwrap(),
            "https://verify.example/start?locale=es&inquiry-template-id=itmpl_A+B%26c%3Dd&reference-id=r"
        );
        let with = |flow_url: &str| Config {
            kyc: Some(config::Kyc {
                flow_url: flow_url.into(),
                ..provider.clone()
            }),
            ..Config::default()
        };
        assert!(check_flow_url(&with("https://withpersona.com/verify")).is_ok());
        assert!(check_flow_url(&with("withpersona.com/verify")).is_err());
        assert!(check_flow_url(&with("javascript:alert(1)")).is_err());
    }
}
