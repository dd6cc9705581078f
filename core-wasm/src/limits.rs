//! The limits on attempts (sign-ins, codes mailed, secret reads, requests a minute): when a
//! refused client may try again.

/// The whole seconds from `now_ms` until a window that refuses ends at `until_ms`, rounded up
/// (a retry a moment early would be refused again), at least 1: the `Retry-After` a refusal says.
pub fn retry_after_secs(until_ms: i64, now_ms: i64) -> u64 {
    let left = u64::try_from(until_ms.saturating_sub(now_ms)).unwrap_or(0);
    left.div_ceil(1000).max(1)
}

#[cfg(test)]
mod tests {
    use super::retry_after_secs;

    #[test]
    fn a_retry_is_never_early_and_never_zero() {
        assert_eq!(retry_after_secs(60_000, 0), 60);
        assert_eq!(retry_after_secs(60_000, 1), 60, "59.999 s: 60");
        assert_eq!(retry_after_secs(60_000, 59_001), 1);
        assert_eq!(retry_after_secs(60_000, 60_000), 1, "ended: at least 1");
        assert_eq!(retry_after_secs(0, 5_000), 1, "past: at least 1");
        assert_eq!(
            retry_after_secs(i64::MAX, i64::MIN),
            i64::MAX as u64 / 1000 + 1,
            "no overflow"
        );
    }
}
