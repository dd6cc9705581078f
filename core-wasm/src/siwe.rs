//! Wallet linking by Sign-In-With-Ethereum (EIP-4361; docs/product/chain.md#wallet-linking). The
//! browser builds the message here, the wallet signs it (personal_sign), and the server checks it
//! here.
//!
//! The whole text is read against EIP-4361's grammar (the domain an RFC 3986 authority, the URI
//! an RFC 3986 URI, the address EIP-55, the nonce at least 8 alphanumerics, the statement one
//! line of RFC 3986's reserved and unreserved characters and spaces, RFC 3339 times, the
//! optional fields in their order), and then against what the server expects: its domain and
//! URI are one of the public origins the app is served at (from the server's configuration,
//! never from a request header: a message a phishing site had signed for itself names that
//! site), its chain is Polygon (137), its nonce is the one the server issued, it has not
//! expired, and the signature (low-s, EIP-2) recovers (ethers-core) to the address it names.
//! The address is then stored checksummed (EIP-55).

use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, Utc};
use ethers_core::types::{Address, Signature, U256};
use ethers_core::utils::to_checksum;

/// Polygon mainnet (docs/product.md#constants); the dev chain uses the same id.
pub const CHAIN_ID: u64 = 137;
/// How long a nonce (and so a message) stays good.
pub const NONCE_TTL_MS: i64 = 10 * 60 * 1000;
/// How far a browser's clock may run ahead of the server's.
const CLOCK_SKEW_MS: i64 = 60 * 1000;
/// The shortest nonce EIP-4361 allows.
const NONCE_MIN: usize = 8;
/// secp256k1's group order halved: EIP-2 refuses signatures whose s is above it (each
/// signature has a high-s twin that recovers to the same key; only one form is accepted).
const HALF_ORDER: &str = "7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0";

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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Message {
    /// The optional scheme before the domain (`https://example.com wants you…`); when given it
    /// must be the origin's.
    pub scheme: Option<String>,
    /// An RFC 3986 authority (host, optional port and user information).
    pub domain: String,
    pub address: String,
    pub statement: Option<String>,
    pub uri: String,
    pub chain_id: u64,
    pub nonce: String,
    pub issued_at: i64,
    pub expiration_time: Option<i64>,
    pub not_before: Option<i64>,
    pub request_id: Option<String>,
    pub resources: Vec<String>,
}

fn rfc3339(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// An RFC 3339 date-time as EIP-4361's grammar writes it ("T" and "Z" upper case; chrono alone
/// would also take a space or lower case).
fn parse_time(text: &str) -> Result<i64, SiweError> {
    if text.as_bytes().get(10) != Some(&b'T') || text.contains(['t', 'z', ' ']) {
        return Err(SiweError::Malformed);
    }
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.timestamp_millis())
        .map_err(|_| SiweError::Malformed)
}

/// RFC 3986's unreserved and reserved characters.
fn uri_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~:/?#[]@!$&'()*+,;=".contains(c)
}

/// EIP-4361's statement: one line of RFC 3986 reserved and unreserved characters and spaces.
pub fn is_statement(text: &str) -> bool {
    text.chars().all(|c| c == ' ' || uri_char(c))
}

/// An RFC 3986 URI (scheme, then the rest by the RFC's grammar).
pub fn is_uri(text: &str) -> bool {
    fluent_uri::Uri::parse(text).is_ok()
}

/// An RFC 3986 authority: `[userinfo "@"] host [":" port]`, nothing else.
pub fn is_authority(text: &str) -> bool {
    !text.is_empty()
        && fluent_uri::Uri::parse(format!("x://{text}").as_str()).is_ok_and(|u| {
            u.authority().is_some_and(|a| a.as_str() == text) && u.path().as_str().is_empty()
        })
}

/// RFC 3986's `*pchar`: unreserved, percent-encoded, sub-delims, ":" and "@".
fn is_pchars(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            if i + 2 >= bytes.len()
                || !bytes[i + 1].is_ascii_hexdigit()
                || !bytes[i + 2].is_ascii_hexdigit()
            {
                return false;
            }
            i += 3;
            continue;
        }
        if !(b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b)) {
            return false;
        }
        i += 1;
    }
    true
}

fn is_nonce(text: &str) -> bool {
    text.len() >= NONCE_MIN && text.chars().all(|c| c.is_ascii_alphanumeric())
}

/// A chain id: decimal digits (EIP-4361's `1*DIGIT`).
fn chain_id(text: &str) -> Result<u64, SiweError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(SiweError::Malformed);
    }
    text.parse().map_err(|_| SiweError::Malformed)
}

/// The lines of a message, read in order.
struct Lines<'a> {
    lines: std::iter::Peekable<std::str::Split<'a, char>>,
}

impl<'a> Lines<'a> {
    fn next(&mut self) -> Result<&'a str, SiweError> {
        self.lines.next().ok_or(SiweError::Malformed)
    }

    fn field(&mut self, name: &str) -> Result<&'a str, SiweError> {
        self.next()?.strip_prefix(name).ok_or(SiweError::Malformed)
    }

    /// The optional field `name`, when the next line is it.
    fn optional(&mut self, name: &str) -> Option<&'a str> {
        let value = self.lines.peek()?.strip_prefix(name)?;
        self.lines.next();
        Some(value)
    }
}

/// RFC 3986's `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

impl Message {
    /// The exact text the wallet shows and signs.
    pub fn to_text(&self) -> String {
        let scheme = self
            .scheme
            .as_ref()
            .map(|s| format!("{s}://"))
            .unwrap_or_default();
        let mut text = format!("{scheme}{}{PREAMBLE}\n{}\n\n", self.domain, self.address);
        if let Some(statement) = &self.statement {
            text.push_str(statement);
            text.push('\n');
        }
        text.push_str(&format!(
            "\nURI: {}\nVersion: 1\nChain ID: {}\nNonce: {}\nIssued At: {}",
            self.uri,
            self.chain_id,
            self.nonce,
            rfc3339(self.issued_at)
        ));
        if let Some(at) = self.expiration_time {
            text.push_str(&format!("\nExpiration Time: {}", rfc3339(at)));
        }
        if let Some(at) = self.not_before {
            text.push_str(&format!("\nNot Before: {}", rfc3339(at)));
        }
        if let Some(id) = &self.request_id {
            text.push_str(&format!("\nRequest ID: {id}"));
        }
        if !self.resources.is_empty() {
            text.push_str("\nResources:");
            for resource in &self.resources {
                text.push_str(&format!("\n- {resource}"));
            }
        }
        text
    }

    /// Reads a message by EIP-4361's grammar; anything else (a field out of order, a line too
    /// many, a value outside its rule) is [`SiweError::Malformed`].
    pub fn parse(text: &str) -> Result<Message, SiweError> {
        let mut lines = Lines {
            lines: text.split('\n').peekable(),
        };
        let first = lines
            .next()?
            .strip_suffix(PREAMBLE)
            .ok_or(SiweError::Malformed)?;
        // EIP-4361: `[ scheme "://" ] domain`, scheme as RFC 3986 writes it.
        let (scheme, domain) = match first.split_once("://") {
            Some((scheme, domain)) if is_scheme(scheme) => (Some(scheme.to_string()), domain),
            Some(_) => return Err(SiweError::Malformed),
            None => (None, first),
        };
        if !is_authority(domain) {
            return Err(SiweError::Malformed);
        }
        let address = lines.next()?;
        if !address.starts_with("0x")
            || checksummed(address).as_deref() != Some(address)
            || !lines.next()?.is_empty()
        {
            return Err(SiweError::Malformed);
        }
        let statement = match lines.next()? {
            "" => None,
            statement if is_statement(statement) && lines.next()?.is_empty() => {
                Some(statement.to_string())
            }
            _ => return Err(SiweError::Malformed),
        };
        let uri = lines.field("URI: ")?;
        if !is_uri(uri) || lines.next()? != "Version: 1" {
            return Err(SiweError::Malformed);
        }
        let chain_id = chain_id(lines.field("Chain ID: ")?)?;
        let nonce = lines.field("Nonce: ")?;
        if !is_nonce(nonce) {
            return Err(SiweError::Malformed);
        }
        let issued_at = parse_time(lines.field("Issued At: ")?)?;
        let expiration_time = lines
            .optional("Expiration Time: ")
            .map(parse_time)
            .transpose()?;
        let not_before = lines.optional("Not Before: ").map(parse_time).transpose()?;
        let request_id = lines.optional("Request ID: ").map(str::to_string);
        if request_id.as_deref().is_some_and(|id| !is_pchars(id)) {
            return Err(SiweError::Malformed);
        }
        let mut resources = Vec::new();
        if let Some(rest) = lines.optional("Resources:") {
            if !rest.is_empty() {
                return Err(SiweError::Malformed);
            }
            while let Some(resource) = lines.optional("- ") {
                if !is_uri(resource) {
                    return Err(SiweError::Malformed);
                }
                resources.push(resource.to_string());
            }
        }
        if lines.lines.next().is_some() {
            return Err(SiweError::Malformed);
        }
        Ok(Message {
            scheme,
            domain: domain.to_string(),
            address: address.to_string(),
            statement,
            uri: uri.to_string(),
            chain_id,
            nonce: nonce.to_string(),
            issued_at,
            expiration_time,
            not_before,
            request_id,
            resources,
        })
    }
}

/// A public origin the app is served at (`scheme://authority`, e.g. `https://app.example.com`
/// or `http://127.0.0.1:8080`): the server's configuration names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    authority: String,
}

impl Origin {
    /// An origin: an RFC 3986 URI of scheme and authority only (a trailing `/` is allowed).
    pub fn parse(text: &str) -> Result<Origin, SiweError> {
        let text = text.strip_suffix('/').unwrap_or(text);
        let uri = fluent_uri::Uri::parse(text).map_err(|_| SiweError::Malformed)?;
        let authority = uri.authority().ok_or(SiweError::Malformed)?;
        if !uri.path().as_str().is_empty()
            || uri.query().is_some()
            || uri.fragment().is_some()
            || authority.has_userinfo()
            || authority.host().is_empty()
        {
            return Err(SiweError::Malformed);
        }
        Ok(Origin {
            scheme: uri.scheme().as_str().to_ascii_lowercase(),
            authority: authority.as_str().to_ascii_lowercase(),
        })
    }

    /// The authority a message's domain must name.
    pub fn authority(&self) -> &str {
        &self.authority
    }

    /// Whether `uri` (an RFC 3986 URI) is on this origin: same scheme and authority (letters'
    /// case aside), any path.
    fn holds(&self, uri: &str) -> bool {
        fluent_uri::Uri::parse(uri).is_ok_and(|u| {
            u.scheme().as_str().eq_ignore_ascii_case(&self.scheme)
                && u.authority()
                    .is_some_and(|a| a.as_str().eq_ignore_ascii_case(&self.authority))
        })
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}", self.scheme, self.authority)
    }
}

/// What the server expects of a message.
#[derive(Debug, Clone, Copy)]
pub struct Expect<'a> {
    /// The public origins the app is served at (configuration, never a request header).
    pub origins: &'a [Origin],
    /// The chain the app runs on (configuration: Polygon's 137, or a test network's).
    pub chain_id: u64,
    pub nonce: &'a str,
    pub now_ms: i64,
}

/// Checks a signed message; answers the signer's checksummed address.
pub fn verify(text: &str, signature: &str, expect: &Expect) -> Result<String, SiweError> {
    let message = Message::parse(text)?;
    // The domain and the URI name one of this app's own origins.
    if !expect.origins.iter().any(|o| {
        message.domain.eq_ignore_ascii_case(o.authority())
            && o.holds(&message.uri)
            && message
                .scheme
                .as_ref()
                .is_none_or(|s| s.eq_ignore_ascii_case(&o.scheme))
    }) {
        return Err(SiweError::Domain);
    }
    if message.chain_id != expect.chain_id {
        return Err(SiweError::Chain);
    }
    if message.nonce != expect.nonce {
        return Err(SiweError::Nonce);
    }
    // The server issues every message with an expiry at most a nonce's life after its issue.
    let expires = message.expiration_time.ok_or(SiweError::Time)?;
    if expires <= expect.now_ms
        || message.issued_at > expect.now_ms + CLOCK_SKEW_MS
        || expires - message.issued_at > NONCE_TTL_MS
        || message
            .not_before
            .is_some_and(|t| t > expect.now_ms + CLOCK_SKEW_MS)
    {
        return Err(SiweError::Time);
    }
    let named = Address::from_str(message.address.trim_start_matches("0x"))
        .map_err(|_| SiweError::Malformed)?;
    let signature = signature_of(signature)?;
    let signer = signature.recover(text).map_err(|_| SiweError::Signature)?;
    if signer != named {
        return Err(SiweError::Signature);
    }
    Ok(to_checksum(&signer, None))
}

/// A 65-byte signature as hex, v as 27/28 (or 0/1, as some wallets answer), s in the lower
/// half of the curve's order (EIP-2).
fn signature_of(text: &str) -> Result<Signature, SiweError> {
    let hex = text.strip_prefix("0x").unwrap_or(text);
    if hex.len() != 130 {
        return Err(SiweError::Signature);
    }
    let mut signature = Signature::from_str(hex).map_err(|_| SiweError::Signature)?;
    if signature.v < 27 {
        signature.v += 27;
    }
    if !matches!(signature.v, 27 | 28) || !is_low_s(signature.s) {
        return Err(SiweError::Signature);
    }
    Ok(signature)
}

/// The EIP-55 form of an address, or `None` when it is not one (a mixed-case address whose
/// checksum is wrong is none: [`crate::chain::address`]).
pub fn checksummed(address: &str) -> Option<String> {
    crate::chain::address(address)
        .ok()
        .map(|a| to_checksum(&a, None))
}

/// Whether `s` is in the lower half of the curve's order (EIP-2): every signature has a high-s
/// twin that recovers to the same key, and only one form is accepted, here and for owners.
pub fn is_low_s(s: U256) -> bool {
    s <= U256::from_str_radix(HALF_ORDER, 16).expect("constant") && !s.is_zero()
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

    fn origins() -> Vec<Origin> {
        vec![Origin::parse("http://127.0.0.1:8080").unwrap()]
    }

    fn message(key: &super::dev::SigningKey) -> Message {
        Message {
            domain: "127.0.0.1:8080".into(),
            address: address(key),
            statement: Some("Link this wallet to your LVLX account.".into()),
            uri: "http://127.0.0.1:8080".into(),
            chain_id: CHAIN_ID,
            nonce: "a1b2c3d4e5f60718293a4b5c".into(),
            issued_at: NOW - 1000,
            expiration_time: Some(NOW - 1000 + NONCE_TTL_MS),
            ..Message::default()
        }
    }

    fn check(text: &str, signature: &str, nonce: &str) -> Result<String, SiweError> {
        verify(
            text,
            signature,
            &Expect {
                origins: &origins(),
                chain_id: CHAIN_ID,
                nonce,
                now_ms: NOW,
            },
        )
    }

    #[test]
    fn a_signed_message_gives_its_checksummed_signer() {
        let m = message(&key(0));
        let text = m.to_text();
        assert_eq!(Message::parse(&text).unwrap(), m);
        assert!(text.starts_with("127.0.0.1:8080 wants you to sign in with your Ethereum account:\n0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\n"));
        let signer = check(&text, &sign(&key(0), &text), &m.nonce).unwrap();
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
            check(&text, &sign(&key(1), &text), &m.nonce),
            Err(SiweError::Signature)
        );
        let altered = text.replace("LVLX account", "LVLX acc0unt");
        assert_eq!(check(&altered, &good, &m.nonce), Err(SiweError::Signature));
        assert_eq!(check(&text, "0x1234", &m.nonce), Err(SiweError::Signature));
        // Another nonce (a replay of an older message), site, chain or time.
        assert_eq!(
            check(&text, &good, "ffffffffffffffffffffffff"),
            Err(SiweError::Nonce)
        );
        let mainnet = Message {
            chain_id: 1,
            ..m.clone()
        }
        .to_text();
        assert_eq!(
            check(&mainnet, &sign(&k, &mainnet), &m.nonce),
            Err(SiweError::Chain)
        );
        let late = Expect {
            origins: &origins(),
            chain_id: CHAIN_ID,
            nonce: &m.nonce,
            now_ms: m.expiration_time.unwrap(),
        };
        assert_eq!(verify(&text, &good, &late), Err(SiweError::Time));
        for stale in [
            Message {
                expiration_time: Some(m.issued_at + NONCE_TTL_MS + 1),
                ..m.clone()
            },
            Message {
                expiration_time: None,
                ..m.clone()
            },
            Message {
                not_before: Some(NOW + 2 * CLOCK_SKEW_MS),
                ..m.clone()
            },
        ] {
            let text = stale.to_text();
            assert_eq!(
                check(&text, &sign(&k, &text), &m.nonce),
                Err(SiweError::Time)
            );
        }
        assert_eq!(check("hello", &good, &m.nonce), Err(SiweError::Malformed));
    }

    /// EIP-4361 lets the first line carry the scheme (`https://example.com wants you…`): taken
    /// when scheme and authority name a configured origin, refused for another scheme.
    #[test]
    fn a_first_line_with_the_origins_scheme_is_accepted() {
        let k = key(0);
        let m = message(&k);
        let with = |scheme: &str| {
            let text = Message {
                scheme: Some(scheme.into()),
                ..m.clone()
            }
            .to_text();
            (text.clone(), check(&text, &sign(&k, &text), &m.nonce))
        };
        let (text, checked) = with("http");
        assert!(
            text.starts_with("http://127.0.0.1:8080 wants you to sign in"),
            "{text}"
        );
        assert_eq!(checked, Ok(address(&k)));
        assert_eq!(with("HTTP").1, Ok(address(&k)));
        assert_eq!(with("https").1, Err(SiweError::Domain));
        assert_eq!(with("1http").1, Err(SiweError::Malformed));
        let text = m.to_text().replacen("127.0.0.1", "://127.0.0.1", 1);
        assert_eq!(Message::parse(&text), Err(SiweError::Malformed));
    }

    /// A phishing page has the victim sign a message for its own site with a nonce this server
    /// gave the attacker: whatever Host the attacker then claims, the configured origins decide.
    #[test]
    fn a_message_for_another_origin_is_refused() {
        let k = key(0);
        let m = message(&k);
        let foreign = |domain: &str, uri: &str| {
            let text = Message {
                domain: domain.into(),
                uri: uri.into(),
                ..m.clone()
            }
            .to_text();
            check(&text, &sign(&k, &text), &m.nonce)
        };
        assert_eq!(
            foreign("evil.example", "https://evil.example"),
            Err(SiweError::Domain)
        );
        assert_eq!(
            foreign("127.0.0.1:8080", "https://evil.example/login"),
            Err(SiweError::Domain),
            "the URI must be on the same origin"
        );
        assert_eq!(
            foreign("evil.example", "http://127.0.0.1:8080"),
            Err(SiweError::Domain)
        );
        assert_eq!(
            foreign("127.0.0.1:8080", "https://127.0.0.1:8080"),
            Err(SiweError::Domain),
            "another scheme is another origin"
        );
        assert_eq!(
            foreign("127.0.0.1:8081", "http://127.0.0.1:8081"),
            Err(SiweError::Domain)
        );
        // A path under the origin is the origin's.
        assert!(foreign("127.0.0.1:8080", "http://127.0.0.1:8080/dashboard").is_ok());
    }

    /// EIP-2: each signature has a twin (s → n − s, v flipped) that recovers to the same key;
    /// only the low-s form is accepted.
    #[test]
    fn high_s_twins_are_refused() {
        let k = key(0);
        let m = message(&k);
        let text = m.to_text();
        let low = Signature::from_str(sign(&k, &text).trim_start_matches("0x")).unwrap();
        let n = U256::from_str_radix(
            "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
            16,
        )
        .unwrap();
        let high = Signature {
            r: low.r,
            s: n - low.s,
            v: if low.v == 27 { 28 } else { 27 },
        };
        assert_eq!(
            high.recover(text.as_str()).unwrap(),
            low.recover(text.as_str()).unwrap(),
            "the twin recovers to the same signer"
        );
        assert!(check(&text, &format!("0x{low}"), &m.nonce).is_ok());
        assert_eq!(
            check(&text, &format!("0x{high}"), &m.nonce),
            Err(SiweError::Signature)
        );
    }

    #[test]
    fn the_grammar_is_eip_4361s() {
        let m = message(&key(0));
        let good = m.to_text();
        assert!(Message::parse(&good).is_ok());
        // Every optional field, in order, reads back as written.
        let full = Message {
            statement: None,
            not_before: Some(NOW),
            request_id: Some("req-1%20a:b@c".into()),
            resources: vec![
                "ipfs://Qme7ss3ARVgxv6rXqVPi".into(),
                "https://a.example/x?y#z".into(),
            ],
            ..m.clone()
        };
        assert_eq!(Message::parse(&full.to_text()).unwrap(), full);
        let bad = [
            good.replace("127.0.0.1:8080 wants", "not_an authority wants"),
            good.replace("127.0.0.1:8080 wants", "a/b wants"),
            good.replace("127.0.0.1:8080 wants", " wants"),
            good.replace("URI: http://127.0.0.1:8080", "URI: _not_a_uri_"),
            good.replace("URI: http://127.0.0.1:8080", "URI: http://a b"),
            good.replace("Nonce: a1b2c3d4e5f60718293a4b5c", "Nonce: 1234567"),
            good.replace("Nonce: a1b2c3d4e5f60718293a4b5c", "Nonce: a1b2c3d4-e5f6"),
            good.replace("Chain ID: 137", "Chain ID: ?"),
            good.replace("Version: 1", "Version: 2"),
            good.replace("LVLX account.", "LVLX\naccount."),
            good.replace("LVLX account.", "LVLX conta à"),
            good.replace(
                "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
                "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266",
            ),
            good.replace("\n\nURI", "\n\n\nURI"),
            good.replace("Issued At: ", "Issued At: Wed Oct 05 2011 "),
            format!("{good}\n"),
            format!("{good}\nResources:x"),
            format!("{good}\nResources:\n- _not_a_uri_"),
            format!("{good}\nRequest ID: a b"),
            format!("{good}\nNot Before: yesterday"),
            format!("{}\nRequest ID: r\nNot Before: 2026-01-01T00:00:00Z", good),
        ];
        for text in bad {
            assert_eq!(Message::parse(&text), Err(SiweError::Malformed), "{text}");
        }
    }

    /// The statement the app asks wallets to sign, in every language, is one EIP-4361 allows
    /// (no accented letters: "à" made the Portuguese message unsignable by the grammar).
    #[test]
    fn every_translated_statement_is_a_statement() {
        for lng in ["en", "es", "pt"] {
            let path = format!("{}/../locales/{lng}/{lng}.json", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let strings: serde_json::Value = serde_json::from_str(&text).unwrap();
            let statement = strings["wallet-link-statement"].as_str().unwrap();
            assert!(is_statement(statement), "{lng}: {statement}");
        }
    }

    /// Agreement with an independent reader: spruceid's siwe-py (ABNF) on 159 messages, its
    /// verdicts written by testdata/siwe_vectors.py.
    #[test]
    fn the_parser_agrees_with_siwe_py() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/siwe.json");
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let disagree: Vec<String> = cases
            .iter()
            .filter(|c| Message::parse(c["text"].as_str().unwrap()).is_ok() != c["parses"])
            .map(|c| format!("siwe-py {}: {:?}", c["parses"], c["text"]))
            .collect();
        assert!(disagree.is_empty(), "{}", disagree.join("\n"));
        assert!(cases.len() > 150);
    }

    #[test]
    fn origins_are_scheme_and_authority() {
        let o = Origin::parse("HTTPS://App.Example.com/").unwrap();
        assert_eq!(o.to_string(), "https://app.example.com");
        assert_eq!(o.authority(), "app.example.com");
        for bad in [
            "app.example.com",
            "https://",
            "https://a.example/path",
            "https://u@a.example",
            "https://a.example?x",
        ] {
            assert!(Origin::parse(bad).is_err(), "{bad}");
        }
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
