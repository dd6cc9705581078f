//! The self-hosted captcha (docs/product/accounts.md#captcha): the server hands out an HMAC-signed,
//! expiring challenge; the browser proves work on it with the core; each challenge is accepted
//! once.

use serde::{Deserialize, Serialize};

use crate::crypto;
use crate::error::Error;

const LIFE_MS: i64 = 5 * 60 * 1000;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CaptchaChallenge)]
pub struct Challenge {
    pub challenge: String,
    pub difficulty: u32,
}

/// What a form sends back.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[schema(as = CaptchaAnswer)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    pub challenge: String,
    pub solution: u64,
}

/// "expires.nonce.difficulty.mac": everything the check needs travels signed.
pub fn issue(key: &[u8], difficulty: u32, now_ms: i64) -> Challenge {
    let body = format!(
        "{}.{}.{difficulty}",
        now_ms + LIFE_MS,
        crypto::random_hex(12)
    );
    let mac = crypto::hmac_hex(key, &["captcha", &body]);
    Challenge {
        challenge: format!("{body}.{mac}"),
        difficulty,
    }
}

/// Checks signature, expiry and work. Single use is the caller's part (see [`replay_key`]).
pub fn check(key: &[u8], answer: &Answer, min_difficulty: u32, now_ms: i64) -> Result<i64, Error> {
    let bad = || Error::Captcha;
    let issued = lvlx_core::captcha::Issued::read(&answer.challenge).ok_or_else(bad)?;
    if !crypto::same(
        issued.mac,
        &crypto::hmac_hex(key, &["captcha", issued.body]),
    ) {
        return Err(bad());
    }
    let (expires, difficulty) = (issued.expires_ms, issued.difficulty);
    if expires < now_ms || difficulty < min_difficulty {
        return Err(bad());
    }
    if !lvlx_core::captcha::verify(&answer.challenge, answer.solution, difficulty) {
        return Err(bad());
    }
    Ok(expires)
}

/// What is stored to refuse a second use of the same challenge.
pub fn replay_key(answer: &Answer) -> String {
    crypto::sha256_hex(&answer.challenge)
}

/// Checks a solved challenge and spends it (single use).
pub async fn spend(
    store: &crate::Store,
    mac_key: &[u8],
    difficulty: u32,
    answer: Answer,
) -> Result<(), Error> {
    let expires = check(mac_key, &answer, difficulty, crate::now_ms())?;
    let key = replay_key(&answer);
    store
        .write(move |c| {
            if crate::store::captchas::spend(c, &key, expires, crate::now_ms())? {
                Ok(())
            } else {
                Err(Error::Captcha)
            }
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solved_challenges_pass_and_forged_or_stale_ones_fail() {
        let key = [3u8; 32];
        let now = 1_767_225_600_000;
        let c = issue(&key, 6, now);
        let solution = lvlx_core::captcha::solve(&c.challenge, 6).unwrap();
        let answer = Answer {
            challenge: c.challenge.clone(),
            solution,
        };
        assert!(check(&key, &answer, 6, now).is_ok());
        assert!(
            check(&key, &answer, 6, now + LIFE_MS + 1).is_err(),
            "expired"
        );
        assert!(
            check(&[4u8; 32], &answer, 6, now).is_err(),
            "signed by another key"
        );
        assert!(
            check(&key, &answer, 7, now).is_err(),
            "easier than the server asks"
        );
        let lowered = Answer {
            challenge: c.challenge.replacen(".6.", ".0.", 1),
            solution,
        };
        assert!(
            check(&key, &lowered, 0, now).is_err(),
            "difficulty is signed"
        );
        let wrong = Answer {
            challenge: c.challenge,
            solution: solution + 1,
        };
        let wrong_ok = lvlx_core::captcha::verify(&wrong.challenge, wrong.solution, 6);
        assert_eq!(check(&key, &wrong, 6, now).is_ok(), wrong_ok);
    }
}
