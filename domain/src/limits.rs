//! Abuse limits: requests per minute per IP address. One instance (SQLite) counts them in
//! memory (a token bucket); instances sharing a PostgreSQL database count them in the store
//! (a count per minute), so two instances enforce one limit, not two. Per-account
//! limits (failed logins, code sends) live in the database on either backend.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use lvlx_core::limits::retry_after_secs;

use crate::error::Error;
use crate::store::{rate_limits, Store};

#[derive(Clone)]
pub struct PerIp {
    per_minute: u32,
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    /// The store and the limit's name, when the counts are shared.
    shared: Option<(Store, &'static str)>,
}

impl PerIp {
    /// `per_minute` requests a minute, in a burst of at most that many, counted in memory.
    pub fn per_minute(per_minute: u32) -> PerIp {
        let n = NonZeroU32::new(per_minute.max(1)).expect("non-zero");
        PerIp {
            per_minute: n.get(),
            limiter: Arc::new(RateLimiter::keyed(Quota::per_minute(n))),
            shared: None,
        }
    }

    /// `per_minute` requests a minute per address, counted in `store` under `bucket` for every
    /// instance on it.
    pub fn shared(per_minute: u32, bucket: &'static str, store: Store) -> PerIp {
        PerIp {
            shared: Some((store, bucket)),
            ..PerIp::per_minute(per_minute)
        }
    }

    pub async fn check(&self, ip: Option<IpAddr>) -> Result<(), Error> {
        // Without a peer address (never on a real socket) all such callers share one bucket.
        let ip = ip.unwrap_or(IpAddr::from([0, 0, 0, 0]));
        if let Some((store, bucket)) = &self.shared {
            let now = crate::now_ms();
            let minute = now.div_euclid(60_000);
            let (bucket, key) = (*bucket, ip.to_string());
            let count = store
                .write(move |c| rate_limits::hit(c, bucket, &key, minute))
                .await?;
            if count > i64::from(self.per_minute) {
                return Err(Error::RateLimited {
                    retry_after_secs: retry_after_secs((minute + 1) * 60_000, now),
                });
            }
            return Ok(());
        }
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

/// Places counted per key and in all, each held until dropped: a new one is admitted only under
/// both caps. Unauthenticated live-channel sockets per address ([`SocketGate`]), connections
/// per address (`server`), live channels per account.
pub struct Gate<K: Eq + Hash + Clone> {
    inner: Arc<Mutex<Pending<K>>>,
    per_key: u32,
    total: u32,
}

impl<K: Eq + Hash + Clone> Clone for Gate<K> {
    fn clone(&self) -> Self {
        Gate {
            inner: self.inner.clone(),
            per_key: self.per_key,
            total: self.total,
        }
    }
}

struct Pending<K> {
    per_key: HashMap<K, u32>,
    total: u32,
}

/// Live-channel sockets that have not authenticated yet, counted per IP address and in all: a
/// socket is admitted only under both caps, and counts until its first message authenticates
/// it (or it closes). One address cannot hold the server's sockets while nobody has signed in.
pub type SocketGate = Gate<IpAddr>;

/// A place taken; dropping it gives the place back.
pub struct Admitted<K: Eq + Hash + Clone> {
    gate: Gate<K>,
    key: K,
}

impl<K: Eq + Hash + Clone> Gate<K> {
    pub fn new(per_key: u32, total: u32) -> Gate<K> {
        Gate {
            inner: Arc::new(Mutex::new(Pending {
                per_key: HashMap::new(),
                total: 0,
            })),
            per_key: per_key.max(1),
            total: total.max(1),
        }
    }

    /// A place for `key`, if both caps allow it.
    pub fn admit(&self, key: K) -> Option<Admitted<K>> {
        let mut pending = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let held = pending.per_key.get(&key).copied().unwrap_or(0);
        if held >= self.per_key || pending.total >= self.total {
            return None;
        }
        pending.per_key.insert(key.clone(), held + 1);
        pending.total += 1;
        Some(Admitted {
            gate: self.clone(),
            key,
        })
    }

    /// Places held now, in all.
    pub fn pending_total(&self) -> u32 {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).total
    }

    /// Places held now (by `key`, and in all).
    pub fn pending(&self, key: K) -> (u32, u32) {
        let pending = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        (
            pending.per_key.get(&key).copied().unwrap_or(0),
            pending.total,
        )
    }
}

impl<K: Eq + Hash + Clone> Drop for Admitted<K> {
    fn drop(&mut self) {
        let mut pending = self.gate.inner.lock().unwrap_or_else(|e| e.into_inner());
        pending.total = pending.total.saturating_sub(1);
        if let Some(n) = pending.per_key.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                pending.per_key.remove(&self.key);
            }
        }
    }
}

/// The network an address stands for where many addresses come cheap to one attacker: an IPv4
/// /24 or an IPv6 /64 (one subscriber's). Unauthenticated live-channel sockets are counted per
/// network: 52 addresses of one /24 filled the server's 1,000 and kept members' channels out.
pub fn network_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(a) => {
            let [a, b, c, _] = a.octets();
            IpAddr::from([a, b, c, 0])
        }
        IpAddr::V6(a) => subscriber_of(IpAddr::V6(a)),
    }
}

/// The client an address stands for when counting its connections: an IPv4 address itself (a
/// carrier's NAT puts many people behind one), an IPv6 address's /64 (one subscriber's, who
/// holds 2^64 addresses).
pub fn subscriber_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(a) => {
            let s = a.segments();
            IpAddr::from([s[0], s[1], s[2], s[3], 0, 0, 0, 0])
        }
    }
}

/// Raises this process's soft open-file limit to the hard limit (each socket is a file); answers
/// the limit in effect.
pub fn raise_open_files() -> std::io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_counted_by_the_network_they_come_cheap_in() {
        let v4 = |o: [u8; 4]| IpAddr::from(o);
        assert_eq!(network_of(v4([203, 0, 113, 77])), v4([203, 0, 113, 0]));
        assert_eq!(subscriber_of(v4([203, 0, 113, 77])), v4([203, 0, 113, 77]));
        let v6: IpAddr = "2001:db8:1:2:aaaa:bbbb:cccc:dddd".parse().unwrap();
        let net: IpAddr = "2001:db8:1:2::".parse().unwrap();
        assert_eq!(network_of(v6), net);
        assert_eq!(subscriber_of(v6), net);
    }

    #[test]
    fn unauthenticated_sockets_are_capped_per_address_and_in_all() {
        let gate = SocketGate::new(2, 3);
        let (a, b) = (
            Some(IpAddr::from([10, 0, 0, 1])),
            Some(IpAddr::from([10, 0, 0, 2])),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        let first = gate.admit(a).unwrap();
        let _second = gate.admit(a).unwrap();
        assert!(gate.admit(a).is_none(), "two from one address");
        let _third = gate.admit(b).unwrap();
        assert!(gate.admit(b).is_none(), "three in all");
        drop(first);
        assert_eq!(gate.pending(IpAddr::from([10, 0, 0, 1])), (1, 2));
        assert!(gate.admit(a).is_some(), "a place given back is taken again");
    }

    #[tokio::test]
    async fn the_eleventh_request_in_a_minute_waits_in_memory_and_in_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::open_for_test(dir.path()).await;
        for (limit, window_secs) in [
            (PerIp::per_minute(10), 7),
            (PerIp::shared(10, "auth", store.clone()), 61),
        ] {
            let ip = Some(IpAddr::from([10, 0, 0, 1]));
            for _ in 0..10 {
                limit.check(ip).await.unwrap();
            }
            match limit.check(ip).await {
                Err(Error::RateLimited { retry_after_secs }) => {
                    assert!((1..=window_secs).contains(&retry_after_secs))
                }
                other => panic!("{other:?}"),
            }
            assert!(
                limit.check(Some(IpAddr::from([10, 0, 0, 2]))).await.is_ok(),
                "another address has its own bucket"
            );
        }
        // Two instances on one store: one count.
        let (a, b) = (
            PerIp::shared(4, "code", store.clone()),
            PerIp::shared(4, "code", store),
        );
        let ip = Some(IpAddr::from([10, 0, 0, 3]));
        for limit in [&a, &b, &a, &b] {
            limit.check(ip).await.unwrap();
        }
        assert!(a.check(ip).await.is_err() && b.check(ip).await.is_err());
    }
}
