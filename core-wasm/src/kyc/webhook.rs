//! The identity provider's webhook, as bytes from outside (docs/product/help.md#kyc): Persona
//! signs each delivery's body (`Persona-Signature: t=<unix>,v1=<hex>`, an HMAC-SHA256 of
//! "t.body" with the webhook secret) and sends a JSON:API event. Both are read here, with the
//! time given (the core reads no clock); what an event means is [`super::status_after_event`].

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;

/// Why a delivery is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookError {
    /// No `t=…,v1=…` pair is both recent and the body's signature.
    #[error("webhook signature not valid")]
    Signature,
    /// The body is not an event this reads; names the field.
    #[error("webhook event: {0}")]
    Malformed(&'static str),
}

/// The most `t=…,v1=…` pairs read from one header: Persona sends two during a secret rotation.
/// Each costs an HMAC of the whole body, so a header of hundreds of pairs is not read on.
pub const MAX_PAIRS: usize = 4;

/// Checks a `Persona-Signature` header against the raw body: one of its first [`MAX_PAIRS`]
/// `t=…,v1=…` pairs (space-separated) must carry a timestamp within `tolerance_secs` of
/// `now_secs` and the body's HMAC-SHA256 (32 bytes), compared in constant time.
pub fn verify_signature(
    header: &str,
    body: &[u8],
    secret: &str,
    now_secs: i64,
    tolerance_secs: u64,
) -> Result<(), WebhookError> {
    let mut valid = false;
    for pair in header.split_whitespace().take(MAX_PAIRS) {
        let mut t = None;
        let mut v1 = None;
        for part in pair.split(',') {
            match part.split_once('=') {
                Some(("t", value)) => t = value.parse::<i64>().ok(),
                Some(("v1", value)) => v1 = hex::decode(value).ok(),
                _ => {}
            }
        }
        let (Some(t), Some(v1)) = (t, v1.filter(|v| v.len() == 32)) else {
            continue;
        };
        if now_secs.abs_diff(t) > tolerance_secs {
            continue;
        }
        let mut mac =
            Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
        mac.update(t.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        // verify_slice compares in constant time.
        valid |= mac.verify_slice(&v1).is_ok();
    }
    if valid {
        Ok(())
    } else {
        Err(WebhookError::Signature)
    }
}

/// What the webhook needs of a Persona event (JSON:API: data.id, data.attributes.name,
/// data.attributes.created-at, and the inquiry in data.attributes.payload.data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: String,
    pub name: String,
    pub created_at_ms: i64,
    pub inquiry: Option<String>,
    pub reference: Option<String>,
}

impl Event {
    pub fn parse(body: &[u8]) -> Result<Event, WebhookError> {
        let v: Value =
            serde_json::from_slice(body).map_err(|_| WebhookError::Malformed("not JSON"))?;
        let data = &v["data"];
        let attributes = &data["attributes"];
        let text = |v: &Value| {
            v.as_str()
                .filter(|s| !s.is_empty() && s.len() <= 200)
                .map(String::from)
        };
        let field = |v: &Value, name| text(v).ok_or(WebhookError::Malformed(name));
        let id = field(&data["id"], "data.id")?;
        let name = field(&attributes["name"], "data.attributes.name")?;
        let created = field(&attributes["created-at"], "created-at")?;
        let created_at_ms = chrono::DateTime::parse_from_rfc3339(&created)
            .map_err(|_| WebhookError::Malformed("created-at"))?
            .timestamp_millis();
        let object = &attributes["payload"]["data"];
        let is_inquiry = object["type"].as_str() == Some("inquiry");
        Ok(Event {
            id,
            name,
            created_at_ms,
            inquiry: is_inquiry.then(|| text(&object["id"])).flatten(),
            reference: is_inquiry
                .then(|| text(&object["attributes"]["reference-id"]))
                .flatten(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(format!("{t}.").as_bytes());
        mac.update(body);
        format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
    }

    #[test]
    fn signatures_are_checked_with_their_timestamp() {
        let body = br#"{"data":{}}"#;
        let now = 1_790_000_000;
        let good = sign("wbhsec_x", now - 10, body);
        assert!(verify_signature(&good, body, "wbhsec_x", now, 300).is_ok());
        assert!(
            verify_signature(&good, b"{\"data\":{ }}", "wbhsec_x", now, 300).is_err(),
            "body changed"
        );
        assert!(
            verify_signature(&good, body, "wbhsec_y", now, 300).is_err(),
            "other secret"
        );
        assert!(
            verify_signature(&good, body, "wbhsec_x", now + 400, 300).is_err(),
            "stale"
        );
        assert!(
            verify_signature("", body, "wbhsec_x", now, 300).is_err(),
            "unsigned"
        );
        assert!(verify_signature("t=1,v1=zz", body, "wbhsec_x", now, 300).is_err());
        // A forged timestamp with the old signature fails: t is inside the MAC.
        let forged = good.replace(&format!("t={}", now - 10), &format!("t={now}"));
        assert!(verify_signature(&forged, body, "wbhsec_x", now, 300).is_err());
        // Rotation: two pairs, one valid.
        let rotated = format!("{} {}", sign("old", now, body), good);
        assert!(verify_signature(&rotated, body, "wbhsec_x", now, 300).is_ok());
        // Past the first MAX_PAIRS pairs nothing is read (each would hash the whole body).
        let padded = |junk: usize| format!("{}{good}", format!("t={now},v1= ").repeat(junk));
        assert!(verify_signature(&padded(MAX_PAIRS - 1), body, "wbhsec_x", now, 300).is_ok());
        assert!(verify_signature(&padded(MAX_PAIRS), body, "wbhsec_x", now, 300).is_err());
    }

    #[test]
    fn a_persona_inquiry_event_parses() {
        let body = br#"{"data":{"type":"event","id":"evt_1","attributes":{"name":"inquiry.approved","created-at":"2026-11-23T10:00:00.000Z","payload":{"data":{"type":"inquiry","id":"inq_9","attributes":{"status":"approved","reference-id":"abc"}}}}}}"#;
        let e = Event::parse(body).unwrap();
        assert_eq!(e.id, "evt_1");
        assert_eq!(e.name, "inquiry.approved");
        assert_eq!(e.inquiry.as_deref(), Some("inq_9"));
        assert_eq!(e.reference.as_deref(), Some("abc"));
        assert_eq!(e.created_at_ms, 1_795_428_000_000);
        assert_eq!(Event::parse(b"[]"), Err(WebhookError::Malformed("data.id")));
        assert_eq!(
            Event::parse(b"not json"),
            Err(WebhookError::Malformed("not JSON"))
        );
    }
}
