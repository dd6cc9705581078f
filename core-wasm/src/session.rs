//! Reading a session token on the client (docs/product/api.md#session-token). This decodes, it does
//! not verify: the browser uses the payload only to route; the server verifies every call.

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use serde::{Deserialize, Deserializer, Serialize};

/// The decoded payload fields the client needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Expiry, seconds since the epoch.
    pub exp: i64,
    /// Role code; "1001" is an admin. Tokens may carry it as a string or a number.
    #[serde(default, deserialize_with = "string_or_number")]
    pub role: String,
    #[serde(default, deserialize_with = "string_or_number")]
    pub id: String,
}

fn string_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Null => Ok(String::new()),
        other => Err(serde::de::Error::custom(format!("unexpected {other}"))),
    }
}

/// Decodes the payload of a compact JWT (header.payload.signature) without verifying it.
pub fn decode(token: &str) -> Option<Claims> {
    let mut parts = token.split('.');
    let (_header, payload, _signature) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    // Some encoders pad; base64url without padding is the standard form.
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// A token is expired when its exp is earlier than now (docs/product/accounts.md#sessions).
pub fn is_expired(claims: &Claims, now_ms: i64) -> bool {
    claims.exp.saturating_mul(1000) < now_ms
}
