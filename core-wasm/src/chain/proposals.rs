//! The owners' proposal queue (docs/owners.md#owner-functions): how many proposals may wait for
//! a Safe, who may add one, the nonce it takes, and what each one's status is as the Safe stands.

/// At most this many proposals wait for a Safe at once: more would only hide the queue.
pub const MAX_OPEN: u64 = 20;
/// At most this many of them are one admin's: one admin alone cannot fill the queue.
pub const MAX_OPEN_PER_ADMIN: u64 = 10;

/// The refusals [`Queue::admit`] hands to a person.
pub const KEYS: [&str; 2] = ["owner-proposal-queue-full", "owner-proposal-admin-full"];

/// The waiting proposals a new one finds, for the Safe and for the admin proposing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Queue {
    pub open: u64,
    pub open_by_admin: u64,
}

impl Queue {
    pub fn full(self) -> bool {
        self.open >= MAX_OPEN
    }

    /// The nonce a new proposal takes: the one it names (a rejection names the nonce it uses up);
    /// else, behind a full queue, a pause takes the turn at the head, the Safe's own nonce (as a
    /// rejection would: a pause must not wait for every proposal before it); else the first nonce
    /// free after the waiting ones.
    pub fn nonce(self, named: Option<u64>, urgent: bool, safe_nonce: u64, next_free: u64) -> u64 {
        match named {
            Some(n) => n,
            None if urgent && self.full() => safe_nonce,
            None => next_free,
        }
    }

    /// Whether a new proposal may wait: a pause (or the unpause after it) always, so no number
    /// of waiting proposals keeps the owners from stopping a contract; else within both caps.
    /// Refused with the key that says which.
    pub fn admit(self, urgent: bool) -> Result<(), &'static str> {
        if urgent {
            Ok(())
        } else if self.full() {
            Err(KEYS[0])
        } else if self.open_by_admin >= MAX_OPEN_PER_ADMIN {
            Err(KEYS[1])
        } else {
            Ok(())
        }
    }
}

/// A proposal's status as the Safe stands: "executed"; "replaced" (the Safe used its nonce for
/// something else); "ready" (enough signatures, next in the Safe's order); "queued" (enough,
/// behind an earlier nonce); else "signing". A ready one whose call would revert now is
/// "failing", which only a call to the chain tells.
pub fn status(
    executed: bool,
    nonce: u64,
    safe_nonce: u64,
    signed: u64,
    threshold: u64,
) -> &'static str {
    let enough = signed >= threshold;
    match () {
        () if executed => "executed",
        () if nonce < safe_nonce => "replaced",
        () if enough && nonce == safe_nonce => "ready",
        () if enough => "queued",
        () => "signing",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caps_hold_for_everything_but_a_pause() {
        let q = |open, open_by_admin| Queue {
            open,
            open_by_admin,
        };
        assert_eq!(q(0, 0).admit(false), Ok(()));
        assert_eq!(q(19, 9).admit(false), Ok(()));
        assert_eq!(q(20, 0).admit(false), Err("owner-proposal-queue-full"));
        assert_eq!(q(12, 10).admit(false), Err("owner-proposal-admin-full"));
        assert_eq!(q(20, 10).admit(true), Ok(()), "a pause is never refused");
        // A pause behind a full queue takes the head's turn; otherwise the next free nonce.
        assert_eq!(q(20, 0).nonce(None, true, 7, 27), 7);
        assert_eq!(q(19, 0).nonce(None, true, 7, 26), 26);
        assert_eq!(q(20, 0).nonce(None, false, 7, 27), 27);
        assert_eq!(
            q(20, 0).nonce(Some(9), true, 7, 27),
            9,
            "a rejection's own nonce"
        );
    }

    #[test]
    fn a_status_follows_the_safe() {
        assert_eq!(status(true, 3, 9, 0, 2), "executed");
        assert_eq!(status(false, 3, 4, 2, 2), "replaced");
        assert_eq!(status(false, 4, 4, 2, 2), "ready");
        assert_eq!(status(false, 5, 4, 3, 2), "queued");
        assert_eq!(status(false, 4, 4, 1, 2), "signing");
        assert_eq!(status(false, 5, 4, 1, 2), "signing");
    }
}
