//! The self-hosted captcha's proof of work (docs/product/accounts.md#captcha): find a number whose
//! SHA-256 together with the server's challenge starts with `difficulty` zero bits. The browser
//! solves it here (through WebAssembly) and the server checks it here, so both use the same rule.

use sha2::{Digest, Sha256};

/// Most difficulty a challenge may ask; beyond this a browser would take minutes.
pub const MAX_DIFFICULTY: u32 = 32;

fn leading_zero_bits(hash: &[u8]) -> u32 {
    let mut bits = 0;
    for byte in hash {
        if *byte == 0 {
            bits += 8;
        } else {
            return bits + byte.leading_zeros();
        }
    }
    bits
}

fn work(challenge: &str, solution: u64) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(challenge.as_bytes());
    hasher.update(b":");
    hasher.update(solution.to_string().as_bytes());
    hasher.finalize().into()
}

/// True when `solution` proves `difficulty` bits of work on `challenge`.
pub fn verify(challenge: &str, solution: u64, difficulty: u32) -> bool {
    difficulty <= MAX_DIFFICULTY && leading_zero_bits(&work(challenge, solution)) >= difficulty
}

/// The smallest solution (searching upward from 0). Expected cost: 2^difficulty hashes.
pub fn solve(challenge: &str, difficulty: u32) -> Option<u64> {
    if difficulty > MAX_DIFFICULTY {
        return None;
    }
    (0..u64::MAX).find(|n| verify(challenge, *n, difficulty))
}

/// A challenge as the server issues it, "expires.nonce.difficulty.mac", read back from a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued<'a> {
    /// What the server signed: "expires.nonce.difficulty".
    pub body: &'a str,
    /// The server's signature of `body` (its check is the server's: it holds the key).
    pub mac: &'a str,
    pub expires_ms: i64,
    pub difficulty: u32,
}

impl<'a> Issued<'a> {
    /// The parts of a challenge; None for anything not of that shape.
    pub fn read(challenge: &'a str) -> Option<Issued<'a>> {
        let (body, mac) = challenge.rsplit_once('.')?;
        let mut parts = body.split('.');
        let (expires, _nonce, difficulty) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        Some(Issued {
            body,
            mac,
            expires_ms: expires.parse().ok()?,
            difficulty: difficulty.parse().ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solution_verifies_and_its_neighbours_mostly_do_not() {
        let challenge = "1767225600000.00ff00ff00ff00ff00ff00ff.12.c0ffee";
        let n = solve(challenge, 12).unwrap();
        assert!(verify(challenge, n, 12));
        // The smallest solution: nothing below it works.
        assert!((0..n).all(|m| !verify(challenge, m, 12)));
        assert!(!verify(challenge, n, MAX_DIFFICULTY + 1));
    }

    #[test]
    fn zero_bits_counts_bits_not_bytes() {
        assert_eq!(leading_zero_bits(&[0, 0, 0x0f]), 20);
        assert_eq!(leading_zero_bits(&[0x80]), 0);
        assert_eq!(leading_zero_bits(&[0; 32]), 256);
    }

    #[test]
    fn challenges_read_back_in_their_parts() {
        let read = Issued::read("1767225600000.00ff.12.c0ffee").unwrap();
        assert_eq!(read.body, "1767225600000.00ff.12");
        assert_eq!(
            (read.mac, read.expires_ms, read.difficulty),
            ("c0ffee", 1767225600000, 12)
        );
        for bad in [
            "",
            "1.2.3",
            "x.00ff.12.mac",
            "1.00ff.-1.mac",
            "1.00ff.12.extra.mac",
        ] {
            assert_eq!(Issued::read(bad), None, "{bad}");
        }
    }
}
