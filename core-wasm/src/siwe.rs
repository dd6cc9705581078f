//! Wallet linking by Sign-In-With-Ethereum (EIP-4361; DESIGN §5). The browser builds the message
//! here, the wallet signs it (personal_sign), and the server checks it here: its domain is the
//! page origin's host, its chain is Polygon (137), its nonce is the one the server issued, it has
//! not expired, and the signature recovers (ethers-core) to the address it names. The address
//! is then stored checksummed (EIP-55).

use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, Utc};
use ethers_core::types::{Address, Signature};
use ethers_core::utils::to_checksum;

/// Polygon mainnet (SPEC §9); the dev chain uses the same id.
pub const CHAIN_ID: u64 = 137;
/// How long a nonce (and so a message) stays good.
pub const NONCE_TTL_MS: i64 = 10 * 60 * 1000;
/// How far a browser's clock may run ahead of the server's.
const CLOCK_SKEW_MS: i64 = 60 * 1000;

const PREAMBLE: &str = " wants you to sign in with your Ethereum account:";

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SiweError {
    #[error("not an EIP-4361 message")]
    Malformed,
    #[error("the message is for another site")]
    Domain,
    #[error("the message is for another chain")]
    Chain,
    #[error("the nonce is not the one issued")]
    Nonce,
    #[error("the message has expired or is not valid yet")]
    Time,
    #[error("the signature does not match the address")]
    Signature,
}

impl SiweError {
    /// Translation key, also the API error code.
    pub fn key(self) -> &'static str {
        match self {
            SiweError::Time | SiweError::Nonce => "error-wallet-link-expired",
            _ => "error-wallet-link-failed",
        }
    }
}

/// The fields of a message; times are UTC milliseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub domain: String,
    pub address: String,
    pub statement: String,
    pub uri: String,
    pub chain_id: u64,
    pub nonce: String,
    pub issued_at: i64,
    pub expiration_time: i64,
}

fn rfc3339(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn parse_time(text: &str) -> Result<i64, SiweError> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.timestamp_millis())
        .map_err(|_| SiweError::Malformed)
}

impl Message {
    /// The exact text the wallet shows and signs.
    pub fn to_text(&self) -> String {
        format!(
            "{domain}{PREAMBLE}\n{address}\n\n{statement}\n\nURI: {uri}\nVersion: 1\nChain ID: {chain}\nNonce: {nonce}\nIssued At: {issued}\nExpiration Time: {expires}",
            domain = self.domain,
            address = self.address,
            statement = self.statement,
            uri = self.uri,
            chain = self.chain_id,
            nonce = self.nonce,
            issued = rfc3339(self.issued_at),
            expires = rfc3339(self.expiration_time),
        )
    }

    /// Reads the text [`Message::to_text`] writes (the fields in that order, nothing else).
    pub fn parse(text: &str) -> Result<Message, SiweError> {
        let lines: Vec<&str> = text.split('\n').collect();
        let [head, address, "", statement, "", uri, version, chain, nonce, issued, expires] =
            lines[..]
        else {
            return Err(SiweError::Malformed);
        };
        let take = |line: &str, name: &str| -> Result<String, SiweError> {
            line.strip_prefix(name)
                .map(str::to_string)
                .ok_or(SiweError::Malformed)
        };
        if version != "Version: 1" {
            return Err(SiweError::Malformed);
        }
        let domain = head.strip_suffix(PREAMBLE).ok_or(SiweError::Malformed)?;
        if domain.is_empty() || domain.contains(char::is_whitespace) {
            return Err(SiweError::Malformed);
        }
        Ok(Message {
            domain: domain.to_string(),
            address: address.to_string(),
            statement: statement.to_string(),
            uri: take(uri, "URI: ")?,
            chain_id: take(chain, "Chain ID: ")?
                .parse()
                .map_err(|_| SiweError::Malformed)?,
            nonce: take(nonce, "Nonce: ")?,
            issued_at: parse_time(&take(issued, "Issued At: ")?)?,
            expiration_time: parse_time(&take(expires, "Expiration Time: ")?)?,
        })
    }
}

/// What the server expects of a message.
#[derive(Debug, Clone)]
pub struct Expect<'a> {
    /// The page origin's host (and port), e.g. `app.example.com` or `127.0.0.1:8080`.
    pub domain: &'a str,
    pub nonce: &'a str,
    pub now_ms: i64,
}

/// Checks a signed message; answers the signer's checksummed address.
pub fn verify(text: &str, signature: &str, expect: &Expect) -> Result<String, SiweError> {
    let message = Message::parse(text)?;
    if message.domain != expect.domain {
        return Err(SiweError::Domain);
    }
    if message.chain_id != CHAIN_ID {
        return Err(SiweError::Chain);
    }
    if message.nonce != expect.nonce {
        return Err(SiweError::Nonce);
    }
    if message.expiration_time <= expect.now_ms
        || message.issued_at > expect.now_ms + CLOCK_SKEW_MS
        || message.expiration_time - message.issued_at > NONCE_TTL_MS
    {
        return Err(SiweError::Time);
    }
    // EIP-4361: the address is written in its EIP-55 (checksummed) form.
    if checksummed(&message.address).as_deref() != Some(message.address.as_str()) {
        return Err(SiweError::Malformed);
    }
    let named = Address::from_str(message.address.trim_start_matches("0x"))
        .map_err(|_| SiweError::Malformed)?;
    let mut signature = Signature::from_str(signature.trim_start_matches("0x"))
        .map_err(|_| SiweError::Signature)?;
    // Some wallets answer v as 0/1 instead of 27/28.
    if signature.v < 27 {
        signature.v += 27;
    }
    let signer = signature.recover(text).map_err(|_| SiweError::Signature)?;
    if signer != named {
        return Err(SiweError::Signature);
    }
    Ok(to_checksum(&signer, None))
}

/// The EIP-55 form of an address, or `None` when it is not one.
pub fn checksummed(address: &str) -> Option<String> {
    let hex = address.strip_prefix("0x")?;
    (hex.len() == 40)
        .then(|| Address::from_str(hex).ok())
        .flatten()
        .map(|a| to_checksum(&a, None))
}

/// A wallet in tests: anvil's public development keys signing as `personal_sign` does.
#[cfg(any(test, feature = "dev-wallet"))]
pub mod dev {
    pub use ethers_core::k256::ecdsa::SigningKey;
    use ethers_core::types::{Signature, U256};
    use ethers_core::utils::{hash_message, secret_key_to_address, to_checksum};

    /// anvil's first four development keys (public; never for real funds).
    pub fn key(n: usize) -> SigningKey {
        let hex = [
            "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
            "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
            "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
            "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
        ][n];
        let bytes: Vec<u8> = (0..32)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
            .collect();
        SigningKey::from_slice(&bytes).expect("a valid key")
    }

    pub fn address(key: &SigningKey) -> String {
        to_checksum(&secret_key_to_address(key), None)
    }

    /// The 65-byte signature (v = 27/28) of `text` with the EIP-191 prefix, as 0x hex.
    pub fn sign(key: &SigningKey, text: &str) -> String {
        let (sig, recovery) = key
            .sign_prehash_recoverable(hash_message(text).as_bytes())
            .expect("signing");
        let bytes = sig.to_bytes();
        let signature = Signature {
            r: U256::from_big_endian(&bytes[..32]),
            s: U256::from_big_endian(&bytes[32..]),
            v: u64::from(recovery.to_byte()) + 27,
        };
        format!("0x{signature}")
    }
}

#[cfg(test)]
mod tests {
    use super::dev::{address, key, sign};
    use super::*;

    const NOW: i64 = 1_790_000_000_000;

    fn message(key: &super::dev::SigningKey) -> Message {
        Message {
            domain: "127.0.0.1:8080".into(),
            address: address(key),
            statement: "Link this wallet to your LVLX account.".into(),
            uri: "http://127.0.0.1:8080".into(),
            chain_id: CHAIN_ID,
            nonce: "a1b2c3d4e5f60718293a4b5c".into(),
            issued_at: NOW - 1000,
            expiration_time: NOW - 1000 + NONCE_TTL_MS,
        }
    }

    fn expect(nonce: &str) -> Expect<'_> {
        Expect {
            domain: "127.0.0.1:8080",
            nonce,
            now_ms: NOW,
        }
    }

    #[test]
    fn a_signed_message_gives_its_checksummed_signer() {
        let m = message(&key(0));
        let text = m.to_text();
        assert_eq!(Message::parse(&text).unwrap(), m);
        assert!(text.starts_with("127.0.0.1:8080 wants you to sign in with your Ethereum account:\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n"));
        let signer = verify(&text, &sign(&key(0), &text), &expect(&m.nonce)).unwrap();
        assert_eq!(signer, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    }

    #[test]
    fn forged_replayed_foreign_and_stale_messages_are_refused() {
        let k = key(0);
        let m = message(&k);
        let text = m.to_text();
        let good = sign(&k, &text);
        // Signed by another key, or a signed text altered afterwards.
        assert_eq!(
            verify(&text, &sign(&key(1), &text), &expect(&m.nonce)),
            Err(SiweError::Signature)
        );
        let altered = text.replace("LVLX account", "LVLX acc0unt");
        assert_eq!(
            verify(&altered, &good, &expect(&m.nonce)),
            Err(SiweError::Signature)
        );
        assert_eq!(
            verify(&text, "0x1234", &expect(&m.nonce)),
            Err(SiweError::Signature)
        );
        // Another nonce (a replay of an older message), site, chain or time.
        assert_eq!(
            verify(&text, &good, &expect("ffffffffffffffffffffffff")),
            Err(SiweError::Nonce)
        );
        let elsewhere = Message {
            domain: "evil.example".into(),
            ..m.clone()
        }
        .to_text();
        assert_eq!(
            verify(&elsewhere, &sign(&k, &elsewhere), &expect(&m.nonce)),
            Err(SiweError::Domain)
        );
        let mainnet = Message {
            chain_id: 1,
            ..m.clone()
        }
        .to_text();
        assert_eq!(
            verify(&mainnet, &sign(&k, &mainnet), &expect(&m.nonce)),
            Err(SiweError::Chain)
        );
        let late = Expect {
            now_ms: m.expiration_time,
            ..expect(&m.nonce)
        };
        assert_eq!(verify(&text, &good, &late), Err(SiweError::Time));
        let long = Message {
            expiration_time: m.issued_at + NONCE_TTL_MS + 1,
            ..m.clone()
        }
        .to_text();
        assert_eq!(
            verify(&long, &sign(&k, &long), &expect(&m.nonce)),
            Err(SiweError::Time)
        );
        assert_eq!(
            verify("hello", &good, &expect(&m.nonce)),
            Err(SiweError::Malformed)
        );
    }

    #[test]
    fn addresses_are_checksummed_or_refused() {
        assert_eq!(
            checksummed("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266").as_deref(),
            Some("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        );
        assert_eq!(
            checksummed("0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226"),
            None
        );
        assert_eq!(
            checksummed("f39fd6e51aad88f6f4ce6ab8827279cfffb92266"),
            None
        );
    }
}
