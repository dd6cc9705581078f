//! The card on-ramp: the card payment provider is Stripe, whose crypto on-ramp
//! session (`POST /v1/crypto/onramp_sessions`, form-encoded, the secret key as the basic-auth
//! user) is created here, pre-filled with the member's linked wallet on Polygon, and opened by
//! the page through the session's `redirect_url` (Stripe's hosted on-ramp). The secret key never
//! leaves the server.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::config::Card;
use crate::error::Error;

const TIMEOUT: Duration = Duration::from_secs(10);

/// A created session, as the page needs it (what it keeps as stripeData).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = OnrampSession)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub id: String,
    pub client_secret: String,
    pub redirect_url: String,
    pub publishable_key: String,
    pub currency: String,
}

/// The form Stripe's API documents for a session that funds `wallet` on Polygon.
pub fn form(card: &Card, wallet: &str, customer_ip: Option<&str>) -> Vec<(String, String)> {
    let currency = card.destination_currency.clone();
    let mut form = vec![
        ("wallet_addresses[polygon]".to_string(), wallet.to_string()),
        ("destination_networks[]".into(), "polygon".into()),
        ("destination_currencies[]".into(), currency.clone()),
        ("destination_network".into(), "polygon".into()),
        ("destination_currency".into(), currency),
        ("lock_wallet_address".into(), "true".into()),
    ];
    if let Some(ip) = customer_ip {
        form.push(("customer_ip_address".into(), ip.to_string()));
    }
    form
}

/// Reads Stripe's answer: a `crypto.onramp_session` with its id, client secret and redirect URL.
pub fn parse(card: &Card, answer: &Value) -> Result<Session, Error> {
    let text = |k: &str| {
        answer[k]
            .as_str()
            .filter(|s| !s.is_empty())
            .map(String::from)
    };
    if answer["object"].as_str() != Some("crypto.onramp_session") {
        return Err(Error::Internal(
            "card provider: not an onramp session".into(),
        ));
    }
    let redirect_url = text("redirect_url")
        .filter(|u| u.starts_with("https://") || u.starts_with("http://127.0.0.1"))
        .ok_or(Error::Rule("onramp-unavailable"))?;
    Ok(Session {
        id: text("id").ok_or_else(|| Error::Internal("card provider: no id".into()))?,
        client_secret: text("client_secret").unwrap_or_default(),
        redirect_url,
        publishable_key: card.publishable_key.clone(),
        currency: card.destination_currency.clone(),
    })
}

/// Creates a session (blocking; call off the runtime). The provider's refusals and outages
/// become one translated message; their details go to the log, never to the member.
pub fn create(card: &Card, wallet: &str, customer_ip: Option<&str>) -> Result<Session, Error> {
    let agent = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .http_status_as_error(false)
        .build()
        .new_agent();
    let url = format!("{}/v1/crypto/onramp_sessions", card.api_url);
    let form = form(card, wallet, customer_ip);
    let auth = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        format!("{}:", card.secret_key.expose()),
    );
    let mut response = agent
        .post(&url)
        .header("authorization", &format!("Basic {auth}"))
        .send_form(form.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(|e| {
            tracing::warn!(error = %e, "card provider unreachable");
            Error::Rule("onramp-unavailable")
        })?;
    let status = response.status();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 * 1024)
        .read_to_string()
        .map_err(|_| Error::Rule("onramp-unavailable"))?;
    let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    if !status.is_success() {
        tracing::warn!(%status, error = %answer["error"]["message"], "card provider refused the session");
        return Err(Error::Rule("onramp-unavailable"));
    }
    parse(card, &answer)
}

/// On-ramp sessions one member may create per hour (each is a call on the provider's account).
const PER_HOUR: i64 = 10;

/// Creates the provider's on-ramp session for `member`'s linked wallet and records it:
/// NotFound with no provider, WalletRequired without a linked wallet, RateLimited past
/// [`PER_HOUR`] an hour.
pub async fn open(
    store: &crate::Store,
    config: &crate::Config,
    member: &crate::user::User,
    customer_ip: Option<std::net::IpAddr>,
) -> Result<Session, Error> {
    use crate::store::onramp as records;
    let card = config.card.clone().ok_or(Error::NotFound)?;
    let wallet = member.wallet.clone().ok_or(Error::WalletRequired)?;
    let user = member.id;
    let recent = store
        .read(move |c| records::count_since(c, user, crate::now_ms() - 3_600_000))
        .await?;
    if recent >= PER_HOUR {
        return Err(Error::RateLimited {
            retry_after_secs: 600,
        });
    }
    let customer_ip = customer_ip.map(|a| a.to_string());
    let for_wallet = wallet.clone();
    let session =
        tokio::task::spawn_blocking(move || create(&card, &for_wallet, customer_ip.as_deref()))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??;
    let id = session.id.clone();
    store
        .write(move |c| records::record(c, &id, user, &wallet, crate::now_ms()))
        .await?;
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Secret;

    fn card() -> Card {
        Card {
            publishable_key: "pk_test_1".into(),
            secret_key: Secret::new("sk_test_1"),
            api_url: "http://127.0.0.1:1".into(),
            destination_currency: "usdc".into(),
        }
    }

    #[test]
    fn the_form_funds_the_members_wallet_on_polygon() {
        let f = form(&card(), "0xabc", Some("203.0.113.9"));
        let get = |k: &str| f.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_str());
        assert_eq!(get("wallet_addresses[polygon]"), Some("0xabc"));
        assert_eq!(get("destination_network"), Some("polygon"));
        assert_eq!(get("destination_currency"), Some("usdc"));
        assert_eq!(get("lock_wallet_address"), Some("true"));
        assert_eq!(get("customer_ip_address"), Some("203.0.113.9"));
        assert!(
            !f.iter().any(|(_, v)| v.contains("sk_")),
            "the secret is a header, not a field"
        );
    }

    #[test]
    fn an_answer_without_a_hosted_page_is_refused() {
        let ok = serde_json::json!({"id": "cos_1", "object": "crypto.onramp_session", "client_secret": "cos_1_secret_x", "redirect_url": "https://crypto.link.com?session_hash=abc", "status": "initialized"});
        let s = parse(&card(), &ok).unwrap();
        assert_eq!(s.redirect_url, "https://crypto.link.com?session_hash=abc");
        assert_eq!(s.publishable_key, "pk_test_1");
        let mut none = ok.clone();
        none["redirect_url"] = Value::Null;
        assert!(parse(&card(), &none).is_err());
        let mut script = ok.clone();
        script["redirect_url"] = "javascript:alert(1)".into();
        assert!(parse(&card(), &script).is_err());
        assert!(parse(&card(), &serde_json::json!({"object": "charge"})).is_err());
    }
}
