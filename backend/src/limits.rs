//! Abuse limits that need no database: requests per minute per IP address (token bucket).
//! Per-account limits (failed logins, code sends) live in the database, so they hold across
//! instances.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::Error;

#[derive(Clone)]
pub struct PerIp {
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

impl PerIp {
    /// `per_minute` requests a minute, in a burst of at most that many.
    pub fn per_minute(per_minute: u32) -> PerIp {
        let n = NonZeroU32::new(per_minute.max(1)).expect("non-zero");
        PerIp {
            limiter: Arc::new(RateLimiter::keyed(Quota::per_minute(n))),
        }
    }

    pub fn check(&self, ip: Option<IpAddr>) -> Result<(), Error> {
        // Without a peer address (never on a real socket) all such callers share one bucket.
        let ip = ip.unwrap_or(IpAddr::from([0, 0, 0, 0]));
        self.limiter
            .check_key(&ip)
            .map_err(|not_until| Error::RateLimited {
                retry_after_secs: not_until
                    .wait_time_from(DefaultClock::default().now())
                    .as_secs()
                    + 1,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eleventh_request_in_a_minute_waits() {
        let limit = PerIp::per_minute(10);
        let ip = Some(IpAddr::from([10, 0, 0, 1]));
        for _ in 0..10 {
            limit.check(ip).unwrap();
        }
        match limit.check(ip) {
            Err(Error::RateLimited { retry_after_secs }) => {
                assert!((1..=7).contains(&retry_after_secs))
            }
            other => panic!("{other:?}"),
        }
        assert!(
            limit.check(Some(IpAddr::from([10, 0, 0, 2]))).is_ok(),
            "another address has its own bucket"
        );
    }
}
