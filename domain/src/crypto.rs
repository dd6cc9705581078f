//! Randomness, keyed hashing and the server's secret keys.

use std::path::Path;

use hmac::{Hmac, Mac};
use rand::rngs::OsRng;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// `bytes` random bytes from the OS CSPRNG, as hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    OsRng.fill_bytes(&mut buf);
    hex::encode(buf)
}

/// A uniformly random code of `digits` digits whose first digit is not zero.
pub fn random_code_of(digits: u32) -> String {
    let low = 10u32.pow(digits - 1);
    let span = 9 * low;
    // Rejection sampling below the largest multiple of the span keeps it uniform.
    let limit = u32::MAX - u32::MAX % span;
    loop {
        let n = OsRng.next_u32();
        if n < limit {
            return (low + n % span).to_string();
        }
    }
}

pub fn hmac_hex(key: &[u8], parts: &[&str]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    for part in parts {
        mac.update(part.as_bytes());
        mac.update(&[0]);
    }
    hex::encode(mac.finalize().into_bytes())
}

/// Constant-time comparison of two hex digests.
pub fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

pub fn sha256_hex(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("jwt_secret must be at least 32 bytes")]
    TooShort,
    #[error("claim_signing_key must be 32 bytes of hex (a secp256k1 secret)")]
    ClaimKey,
    #[error("cannot read or write {0}: {1}")]
    Io(String, std::io::Error),
}

/// The session-token key: the configured one, or a 256-bit key generated once into the data
/// folder with mode 0600.
pub fn jwt_key(configured: Option<&str>, data_dir: &Path) -> Result<Vec<u8>, KeyError> {
    // One format in the configuration and the file: the text's bytes (at least 32), so the
    // file's text pasted into the configuration is the same key (`lvlx db copy`'s move to
    // PostgreSQL needs it configured). Configured secrets keep the meaning they always had;
    // the file (64 random hex digits) was hex-decoded before 2026-11-26, so a single instance
    // on its generated file signs everyone out once on that upgrade.
    let text_key = |text: &str| {
        let text = text.trim();
        if text.len() >= 32 {
            Ok(text.as_bytes().to_vec())
        } else {
            Err(KeyError::TooShort)
        }
    };
    if let Some(key) = configured {
        return text_key(key);
    }
    let path = data_dir.join("jwt.secret");
    let io = |e| KeyError::Io(path.display().to_string(), e);
    match std::fs::read_to_string(&path) {
        Ok(text) => text_key(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = random_hex(32);
            write_private(&path, &key).map_err(io)?;
            text_key(&key)
        }
        Err(e) => Err(io(e)),
    }
}

/// The claim-signing key: the configured one, or one generated once into the data folder
/// (`claim.key`, mode 0600). Hex of a 32-byte secp256k1 secret.
pub fn claim_key(configured: Option<&str>, data_dir: &Path) -> Result<Vec<u8>, KeyError> {
    let decode = |text: &str| {
        hex::decode(text.trim().trim_start_matches("0x"))
            .ok()
            .filter(|k| k.len() == 32)
            .ok_or(KeyError::ClaimKey)
    };
    if let Some(key) = configured {
        return decode(key);
    }
    let path = data_dir.join("claim.key");
    let io = |e| KeyError::Io(path.display().to_string(), e);
    match std::fs::read_to_string(&path) {
        Ok(text) => decode(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = random_hex(32);
            write_private(&path, &key).map_err(io)?;
            decode(&key)
        }
        Err(e) => Err(io(e)),
    }
}

fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_file_pasted_into_the_configuration_is_the_same_key() {
        let dir = tempfile::tempdir().unwrap();
        let generated = jwt_key(None, dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join("jwt.secret")).unwrap();
        assert_eq!(jwt_key(Some(&text), dir.path()).unwrap(), generated);
        assert_eq!(
            jwt_key(Some(&format!("{text}\n")), dir.path()).unwrap(),
            generated
        );
        let claim = claim_key(None, dir.path()).unwrap();
        let text = std::fs::read_to_string(dir.path().join("claim.key")).unwrap();
        assert_eq!(claim_key(Some(&text), dir.path()).unwrap(), claim);
        // Configured text keeps its meaning: its bytes, hex or not.
        let hex_text = "ab".repeat(32);
        assert_eq!(
            jwt_key(Some(&hex_text), dir.path()).unwrap(),
            hex_text.as_bytes()
        );
        let legacy = "k".repeat(40);
        assert_eq!(
            jwt_key(Some(&legacy), dir.path()).unwrap(),
            legacy.as_bytes()
        );
        assert!(jwt_key(Some("short"), dir.path()).is_err());
    }

    #[test]
    fn codes_have_their_digits_never_starting_with_zero() {
        for _ in 0..2000 {
            let code = random_code_of(6);
            assert_eq!(code.len(), 6);
            assert!(!code.starts_with('0'));
        }
        for _ in 0..2000 {
            let code = random_code_of(4);
            assert_eq!(code.len(), 4);
            assert!(lvlx_core::validation::validate(
                lvlx_core::validation::Field::Code,
                &code,
                None
            )
            .is_ok());
        }
    }

    #[test]
    fn the_generated_key_is_kept_private_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let first = jwt_key(None, dir.path()).unwrap();
        // 256 random bits written as 64 hex digits, the digits being the key (as configured).
        assert_eq!(first.len(), 64);
        assert!(first.iter().all(u8::is_ascii_hexdigit));
        assert_eq!(jwt_key(None, dir.path()).unwrap(), first);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("jwt.secret"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert!(matches!(
            jwt_key(Some("short"), dir.path()),
            Err(KeyError::TooShort)
        ));
    }
}
