//! AES-256-GCM sealing, shared by the browser and the server.
//!
//! Transport (POST key, docs/product/admin.md#secret-key): the admin's secret is sealed with the
//! configured pass key before it is sent. That pass key ships to every browser, so this hides the
//! value from logs and proxies, nothing more; TLS and the server-side checks are the protection.
//!
//! At rest: the operational wallet key is sealed under a key the server derives from the
//! admin secret with argon2id (the derivation lives in the backend; this module only seals).
//!
//! Callers pass the random nonce (the core reads no randomness).

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes256Gcm, Key, Nonce};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use sha2::{Digest, Sha256};

pub const NONCE_LEN: usize = 12;
pub const KEY_LEN: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("cannot open: wrong key or altered data")]
    Open,
    #[error("malformed sealed text")]
    Malformed,
}

/// Seals `plain` under a 256-bit key: nonce ‖ ciphertext+tag.
pub fn seal(key: &[u8; KEY_LEN], nonce: &[u8; NONCE_LEN], plain: &[u8]) -> Vec<u8> {
    let cipher = Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key));
    let sealed = cipher
        .encrypt(Nonce::from_slice(nonce), plain)
        .expect("AES-GCM seals any length this platform uses");
    [nonce.as_slice(), &sealed].concat()
}

/// Opens what [`seal`] made; any change to key, nonce or text fails.
pub fn open(key: &[u8; KEY_LEN], sealed: &[u8]) -> Result<Vec<u8>, SealError> {
    if sealed.len() < NONCE_LEN + 16 {
        return Err(SealError::Malformed);
    }
    let (nonce, body) = sealed.split_at(NONCE_LEN);
    Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key))
        .decrypt(Nonce::from_slice(nonce), body)
        .map_err(|_| SealError::Open)
}

/// The transport key: SHA-256 of the configured pass key.
fn transport_key(pass_key: &str) -> [u8; KEY_LEN] {
    Sha256::digest(pass_key.as_bytes()).into()
}

/// Browser side of POST key: base64(nonce ‖ AES-256-GCM(value)).
pub fn seal_for_transport(value: &str, pass_key: &str, nonce: &[u8; NONCE_LEN]) -> String {
    STANDARD.encode(seal(&transport_key(pass_key), nonce, value.as_bytes()))
}

/// Server side of POST key.
pub fn open_transport(sealed: &str, pass_key: &str) -> Result<String, SealError> {
    let bytes = STANDARD.decode(sealed).map_err(|_| SealError::Malformed)?;
    let plain = open(&transport_key(pass_key), &bytes)?;
    String::from_utf8(plain).map_err(|_| SealError::Malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transport_round_trip_and_tamper() {
        let sealed = seal_for_transport("  my secret ", "pass", &[7; NONCE_LEN]);
        assert_eq!(open_transport(&sealed, "pass").unwrap(), "  my secret ");
        assert_eq!(open_transport(&sealed, "other"), Err(SealError::Open));
        let mut bytes = STANDARD.decode(&sealed).unwrap();
        *bytes.last_mut().unwrap() ^= 1;
        assert_eq!(
            open_transport(&STANDARD.encode(bytes), "pass"),
            Err(SealError::Open)
        );
        assert_eq!(
            open_transport("not base64!", "pass"),
            Err(SealError::Malformed)
        );
        assert_eq!(open_transport("", "pass"), Err(SealError::Malformed));
    }

    #[test]
    fn nonce_changes_the_text() {
        assert_ne!(
            seal_for_transport("x", "pass", &[1; NONCE_LEN]),
            seal_for_transport("x", "pass", &[2; NONCE_LEN])
        );
    }
}
