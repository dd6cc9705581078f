//! Password hashing: argon2id (m = 19456 KiB, t = 2, p = 1), on the blocking pool behind a
//! semaphore sized to the cores, so a burst of logins cannot starve the async runtime.

use std::sync::Arc;

use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

use crate::error::Error;

#[derive(Clone)]
pub struct Passwords {
    permits: Arc<Semaphore>,
}

fn argon2() -> Argon2<'static> {
    Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(19_456, 2, 1, None).expect("valid params"),
    )
}

/// argon2id key derivation (synchronous: command-line tools and the blocking pool).
pub fn derive_key(secret: &str, salt: &[u8]) -> Result<[u8; 32], Error> {
    let mut key = [0u8; 32];
    argon2()
        .hash_password_into(secret.as_bytes(), salt, &mut key)
        .map_err(|e| Error::Internal(format!("argon2: {e}")))?;
    Ok(key)
}

/// A hash of no real password, verified against when an email is unknown so that answers take
/// the same time whether or not the account exists.
const DECOY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$1pQ0PpM4fu8VD8IQCwBeFqCrUT1iJZ0DJ2XpJAm9ZSs";

impl Passwords {
    pub fn new() -> Passwords {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Passwords {
            permits: Arc::new(Semaphore::new(cores)),
        }
    }

    pub async fn hash(&self, password: String) -> Result<String, Error> {
        self.on_hash_thread(move || {
            let salt = SaltString::generate(&mut OsRng);
            argon2()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| Error::Internal(format!("argon2: {e}")))
        })
        .await
    }

    /// Verifies against `hash`, or against a decoy when there is none (unknown account).
    pub async fn verify(&self, password: String, hash: Option<String>) -> Result<bool, Error> {
        self.on_hash_thread(move || {
            let known = hash.is_some();
            let stored = hash.unwrap_or_else(|| DECOY.to_string());
            let parsed = PasswordHash::new(&stored)
                .map_err(|e| Error::Internal(format!("stored hash: {e}")))?;
            Ok(argon2()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
                && known)
        })
        .await
    }

    async fn on_hash_thread<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, Error> + Send + 'static,
    ) -> Result<T, Error> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| Error::Internal("semaphore closed".into()))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| Error::Internal(format!("hash task: {e}")))?
    }
}

impl Default for Passwords {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_the_design_parameters() {
        let p = Passwords::new();
        let hash = p.hash("Passw0rd!".into()).await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(p
            .verify("Passw0rd!".into(), Some(hash.clone()))
            .await
            .unwrap());
        assert!(!p.verify("Passw0rd?".into(), Some(hash)).await.unwrap());
        assert!(
            !p.verify("Passw0rd!".into(), None).await.unwrap(),
            "the decoy never matches"
        );
    }
}
