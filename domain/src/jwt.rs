//! Signed tokens (JWT HS256): the session token the browser keeps, and two short-lived tokens of
//! narrower scope (the step between password and email code, and the password reset).

use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::error::Error;

pub const ISSUER: &str = "lvlx";
pub const AUDIENCE: &str = "lvlx-web";
/// A session token lives this long; tokenVerify (every 16 min) hands out a fresh one.
pub const SESSION_TOKEN_SECS: i64 = 30 * 60;
/// Sessions end this long after sign-in, whatever the refreshes
/// (docs/product/accounts.md#sessions).
pub const SESSION_ABSOLUTE_SECS: i64 = 12 * 3600;
/// Codes, verify and reset tokens live this long.
pub const CODE_SECS: i64 = 10 * 60;
const LEEWAY_SECS: u64 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// A signed-in session: every authenticated call.
    Session,
    /// Password accepted, email code pending: only POST verifycode.
    Verify,
    /// Recovery code accepted: only POST reset.
    Reset,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// User id (`id`, docs/product/api.md#session-token).
    pub id: String,
    /// Role code (`role`); "1001" is an admin. The server re-reads it from the database.
    pub role: String,
    pub exp: i64,
    pub iat: i64,
    pub iss: String,
    pub aud: String,
    /// Session id, or the code attempt the token belongs to.
    pub sid: String,
    pub scope: Scope,
}

#[derive(Clone)]
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl Keys {
    pub fn new(secret: &[u8]) -> Keys {
        Keys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
        }
    }

    pub fn issue(
        &self,
        scope: Scope,
        user_id: i64,
        role: &str,
        sid: &str,
        now_ms: i64,
        life_secs: i64,
    ) -> Result<String, Error> {
        let now = now_ms / 1000;
        let claims = Claims {
            id: user_id.to_string(),
            role: role.to_string(),
            exp: now + life_secs,
            iat: now,
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            sid: sid.to_string(),
            scope,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| Error::Internal(format!("jwt: {e}")))
    }

    /// Verifies signature (HS256 only), expiry (5 s leeway), issuer, audience and scope.
    pub fn verify(&self, token: &str, scope: Scope) -> Result<Claims, Error> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = LEEWAY_SECS;
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iat", "iss", "aud"]);
        let claims = decode::<Claims>(token, &self.decoding, &validation)
            .map_err(|_| Error::Unauthorized)?
            .claims;
        if claims.scope == scope {
            Ok(claims)
        } else {
            Err(Error::Unauthorized)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    const NOW: i64 = 1_767_225_600_000;

    fn now_ms() -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
    }

    #[test]
    fn round_trip_and_scope() {
        let keys = Keys::new(&[7; 32]);
        let t = keys
            .issue(Scope::Session, 5, "1", "abc", now_ms(), 60)
            .unwrap();
        let c = keys.verify(&t, Scope::Session).unwrap();
        assert_eq!((c.id.as_str(), c.sid.as_str()), ("5", "abc"));
        assert!(
            keys.verify(&t, Scope::Verify).is_err(),
            "a session token is not a verify token"
        );
    }

    #[test]
    fn expired_tampered_foreign_and_unsigned_tokens_fail() {
        let keys = Keys::new(&[7; 32]);
        let expired = keys.issue(Scope::Session, 5, "1", "abc", NOW, 60).unwrap();
        assert!(keys.verify(&expired, Scope::Session).is_err());
        let good = keys
            .issue(Scope::Session, 5, "1", "abc", now_ms(), 60)
            .unwrap();
        let other = Keys::new(&[8; 32]);
        assert!(other.verify(&good, Scope::Session).is_err(), "another key");
        // Promote to admin in the payload, keep the signature.
        let parts: Vec<&str> = good.split('.').collect();
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let mut payload: serde_json::Value =
            serde_json::from_slice(&b64.decode(parts[1]).unwrap()).unwrap();
        payload["role"] = "1001".into();
        let tampered = format!(
            "{}.{}.{}",
            parts[0],
            b64.encode(payload.to_string()),
            parts[2]
        );
        assert!(keys.verify(&tampered, Scope::Session).is_err(), "tampered");
        let none_header = b64.encode(r#"{"alg":"none","typ":"JWT"}"#);
        let unsigned = format!("{none_header}.{}.", parts[1]);
        assert!(keys.verify(&unsigned, Scope::Session).is_err(), "alg=none");
    }
}
